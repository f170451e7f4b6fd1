import { getNode } from '@/server/nodes/get';
import { NodePath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ params: NodePath, handle: ({ ctx, params }) => getNode({ ctx, input: params }) }),
});
