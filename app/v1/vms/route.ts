import { PlaceVmInput, placeVm } from '@/server/place-vm';
import { handler, restRoute } from '@/server/rest/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  POST: handler({ body: PlaceVmInput, status: 201, handle: ({ ctx, body }) => placeVm({ ctx, input: body }) }),
});
