import { handler, restRoute } from '@/server/rest/route';
import { listVms } from '@/server/vms/list';
import { placeVm } from '@/server/vms/place';
import { ListVmsQuery, PlaceVmInput } from '@/server/vms/schemas';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ query: ListVmsQuery, handle: ({ ctx, query }) => listVms({ ctx, input: query }) }),
  POST: handler({ body: PlaceVmInput, status: 201, handle: ({ ctx, body }) => placeVm({ ctx, input: body }) }),
});
