import { NodePath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';
import { ChangeTopologyBody, changeTopology } from '@/server/topology';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  PUT: handler({ params: NodePath, body: ChangeTopologyBody, handle: ({ ctx, params, body }) => changeTopology({ ctx, input: { ...body, nodeId: params.nodeId } }) }),
});
