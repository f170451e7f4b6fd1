import { getReservation } from '@/server/reservations';
import { ReservationPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';
import { UpdateReservationBody, updateReservation } from '@/server/update-reservation';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ params: ReservationPath, handle: ({ ctx, params }) => getReservation({ ctx, input: { nodeId: params.nodeId, reservationId: params.id } }) }),
  PATCH: handler({
    params: ReservationPath,
    body: UpdateReservationBody,
    handle: ({ ctx, params, body }) => updateReservation({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }),
  }),
});
