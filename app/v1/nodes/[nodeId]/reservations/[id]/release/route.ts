import { release } from '@/server/reservations/release';
import { ReleaseBody } from '@/server/reservations/schemas';
import { ReservationPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  POST: handler({ params: ReservationPath, body: ReleaseBody, handle: ({ ctx, params, body }) => release({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }) }),
});
