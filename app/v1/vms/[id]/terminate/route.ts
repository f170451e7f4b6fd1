import { VmPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';
import { TerminateVmBody, terminateVm } from '@/server/vms';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  POST: handler({ params: VmPath, body: TerminateVmBody, handle: ({ ctx, params }) => terminateVm({ ctx, input: { vmId: params.id } }) }),
});
