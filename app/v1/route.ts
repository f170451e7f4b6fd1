import { notFoundRoute } from '@/server/rest/route';

// Next answers unknown paths with an HTML page; the API answers problem+json (docs/product.md §5).
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = notFoundRoute();
