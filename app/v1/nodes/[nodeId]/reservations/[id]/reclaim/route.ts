import { reclaim } from '@/server/reservations/reclaim';
import { ReclaimBody } from '@/server/reservations/schemas';
import { ReservationPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  POST: handler({
    params: ReservationPath,
    body: ReclaimBody,
    handle: ({ ctx, params, body }) => reclaim({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }),
  }),
});
