import { PlaceVmInput, placeVm } from '@/server/place-vm';
import { handler, restRoute } from '@/server/rest/route';
import { ListVmsQuery, listVms } from '@/server/vms';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ query: ListVmsQuery, handle: ({ ctx, query }) => listVms({ ctx, input: query }) }),
  POST: handler({ body: PlaceVmInput, status: 201, handle: ({ ctx, body }) => placeVm({ ctx, input: body }) }),
});
