import { getReservation } from '@/server/reservations';
import { ReservationPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({
    params: ReservationPath,
    handle: ({ ctx, params }) => getReservation({ ctx, input: { nodeId: params.nodeId, reservationId: params.id } }),
  }),
});
