import { VmPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';
import { TerminateVmBody } from '@/server/vms/schemas';
import { terminateVm } from '@/server/vms/terminate';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  POST: handler({ params: VmPath, body: TerminateVmBody, handle: ({ ctx, params }) => terminateVm({ ctx, input: { vmId: params.id } }) }),
});
