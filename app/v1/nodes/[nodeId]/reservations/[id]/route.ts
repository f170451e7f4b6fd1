import { getReservation } from '@/server/reservations/get';
import { UpdateReservationBody } from '@/server/reservations/schemas';
import { updateReservation } from '@/server/reservations/update';
import { ReservationPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ params: ReservationPath, handle: ({ ctx, params }) => getReservation({ ctx, input: { nodeId: params.nodeId, reservationId: params.id } }) }),
  PATCH: handler({
    params: ReservationPath,
    body: UpdateReservationBody,
    handle: ({ ctx, params, body }) => updateReservation({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }),
  }),
});
