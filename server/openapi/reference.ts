/**
 * What `/docs/api` renders (docs/product.md §5 "The reference"): the very document
 * `GET /v1/openapi.json` serves, and each operation's history.
 */
import type { oas31 } from 'zod-openapi';
import { restRoutes } from '../rest/routes';
import { getOpenApiDocument } from './document';
import type { ReferenceHistory } from './redoc-options';
import { listOperationHistory, listRevisions } from './revisions';

/**
 * The served OpenAPI document (docs/product.md §5: "An OpenAPI 3.1 document of every route is
 * served at /v1/openapi.json"), built once per process.
 */
export function getServedDocument(): oas31.OpenAPIObject {
  return getOpenApiDocument(restRoutes);
}

/**
 * Every operation's history, by `METHOD path` — one per entry of the route table — and how many
 * revisions there are (docs/product.md §5 "Revisions and the changelog"): what the reference
 * appends to each operation's description.
 */
export function readReferenceHistory(): ReferenceHistory {
  return {
    revisions: listRevisions().length,
    operations: Object.fromEntries(
      restRoutes.map((r) => {
        const operation = `${r.method} ${r.path}`;
        return [operation, listOperationHistory(operation)];
      }),
    ),
  };
}
