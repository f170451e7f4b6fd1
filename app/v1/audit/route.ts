import { listAuditEvents } from '@/server/audit/list';
import { ListAuditQuery } from '@/server/audit/schemas';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ query: ListAuditQuery, handle: ({ ctx, query }) => listAuditEvents({ ctx, input: query }) }),
});
