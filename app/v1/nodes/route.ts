import { ListNodesQuery, listNodes } from '@/server/nodes';
import { handler, restRoute } from '@/server/rest/route';
import { RegisterNodeInput, registerNode } from '@/server/topology';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ query: ListNodesQuery, handle: ({ ctx, query }) => listNodes({ ctx, input: query }) }),
  POST: handler({ body: RegisterNodeInput, status: 201, handle: ({ ctx, body }) => registerNode({ ctx, input: body }) }),
});
