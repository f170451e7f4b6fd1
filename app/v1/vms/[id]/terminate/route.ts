import { VmPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';
import { terminateVm } from '@/server/vms';
import { z } from 'zod';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  POST: handler({ params: VmPath, body: z.object({}).strict(), handle: ({ ctx, params }) => terminateVm({ ctx, input: { vmId: params.id } }) }),
});
