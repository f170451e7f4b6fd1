import { listNodes } from '@/server/nodes/list';
import { registerNode } from '@/server/nodes/register';
import { ListNodesQuery, RegisterNodeInput } from '@/server/nodes/schemas';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ query: ListNodesQuery, handle: ({ ctx, query }) => listNodes({ ctx, input: query }) }),
  POST: handler({ body: RegisterNodeInput, status: 201, handle: ({ ctx, body }) => registerNode({ ctx, input: body }) }),
});
