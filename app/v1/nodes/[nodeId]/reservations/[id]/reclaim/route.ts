import { ReclaimBody, reclaim } from '@/server/reclaim';
import { ReservationPath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  POST: handler({
    params: ReservationPath,
    body: ReclaimBody,
    handle: ({ ctx, params, body }) => reclaim({ ctx, input: { ...body, nodeId: params.nodeId, reservationId: params.id } }),
  }),
});
