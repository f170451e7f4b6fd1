import { listNodeReservations } from '@/server/reservations';
import { NodePath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({
    params: NodePath,
    handle: async ({ ctx, params }) => ({ items: (await listNodeReservations({ ctx, input: params })).map((r) => r.reservation) }),
  }),
});
