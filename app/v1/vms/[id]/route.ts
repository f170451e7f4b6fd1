import { VmPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';
import { getVm } from '@/server/vms/get';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ params: VmPath, handle: ({ ctx, params }) => getVm({ ctx, input: { vmId: params.id } }) }),
});
