import { ChangeTopologyBody } from '@/server/nodes/schemas';
import { changeTopology } from '@/server/nodes/topology';
import { NodePath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  PUT: handler({ params: NodePath, body: ChangeTopologyBody, handle: ({ ctx, params, body }) => changeTopology({ ctx, input: { ...body, nodeId: params.nodeId } }) }),
});
