import { buildOpenApiDocument } from '@/server/openapi/document';
import { handler, restRoute } from '@/server/rest/route';

// The document depends only on code, so it is built once per server process.
let cached: ReturnType<typeof buildOpenApiDocument> | undefined;

/** docs/product.md §5: `GET /v1/openapi.json`, the OpenAPI 3.1 document of every route; needs no credentials. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = restRoute({
  GET: handler({ auth: 'none', handle: async () => (cached ??= buildOpenApiDocument()) }),
});
