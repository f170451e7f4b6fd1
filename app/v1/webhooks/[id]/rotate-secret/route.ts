import { routeHandlers } from '@/server/rest/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/v1/webhooks/{id}/rotate-secret');
