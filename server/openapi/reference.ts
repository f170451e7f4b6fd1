/**
 * What `/docs/api` renders (docs/product.md §5 "The reference"): the very document
 * `GET /v1/openapi.json` serves.
 */
import type { oas31 } from 'zod-openapi';
import { restRoutes } from '../rest/routes';
import { getOpenApiDocument } from './document';

/**
 * The served OpenAPI document (docs/product.md §5: "An OpenAPI 3.1 document of every route is
 * served at /v1/openapi.json"), built once per process.
 */
export function getServedDocument(): oas31.OpenAPIObject {
  return getOpenApiDocument(restRoutes);
}
