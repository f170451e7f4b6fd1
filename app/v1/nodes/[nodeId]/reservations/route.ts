import { createReservation } from '@/server/reservations/create';
import { listNodeReservations } from '@/server/reservations/list';
import { CreateReservationBody, ListNodeReservationsQuery } from '@/server/reservations/schemas';
import { NodePath } from '@/server/rest/paths';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({
    params: NodePath,
    query: ListNodeReservationsQuery,
    handle: async ({ ctx, params, query }) => {
      const page = await listNodeReservations({ ctx, input: { ...query, nodeId: params.nodeId } });
      return { items: page.items.map((r) => r.reservation), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },
  }),
  POST: handler({ params: NodePath, body: CreateReservationBody, status: 201, handle: ({ ctx, params, body }) => createReservation({ ctx, input: { ...body, nodeId: params.nodeId } }) }),
});
