import { cancelReservation } from '@/server/reservations/cancel';
import { ReasonBody } from '@/server/reservations/schemas';
import { ReservationPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  POST: handler({ params: ReservationPath, body: ReasonBody, handle: ({ ctx, params, body }) => cancelReservation({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }) }),
});
