import { reaffirm } from '@/server/reservations/reaffirm';
import { ReasonBody } from '@/server/reservations/schemas';
import { ReservationPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  POST: handler({ params: ReservationPath, body: ReasonBody, handle: ({ ctx, params, body }) => reaffirm({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }) }),
});
