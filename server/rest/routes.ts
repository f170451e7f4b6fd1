/**
 * The REST API (docs/product.md §5 routes table), derived from the operations' declarations
 * (server/operations.ts; each beside its verb, server/<entity>/operations.ts): one entry per
 * declaration with a `rest` part, in declaration order, plus the OpenAPI document itself. Each
 * `app/v1/**\/route.ts` is one line selecting its path (`routeHandlers`), the OpenAPI document
 * renders this table (server/openapi/document.ts, handed it), the proxy's 405s come from the
 * method map generated from it (server/http/methods.generated.ts, so the proxy never loads this
 * module and its verbs), and the authorization matrix and hostile corpora cover every entry.
 *
 * Adding a route: a declaration, one route file, the regenerated method map and contract
 * snapshot (docs/architecture.md "Add an operation").
 */
import { z } from 'zod';
import type { ExportDeclaration } from '../exports/declaration';
import { OpenApiDocumentSchema } from '../openapi/schemas';
import { isRest, type RestDeclaration } from '../operation';
import { operations } from '../operations';
import { restRoute, type NextHandler } from './route';
import type { RouteSpec } from './route-spec';
import { wireOf } from './wire';

/** The path of the OpenAPI document: the one route that needs no credentials (docs/product.md §5). */
export const OPENAPI_PATH = '/v1/openapi.json';

const NoFields = z.strictObject({});

export const restRoutes: readonly RouteSpec[] = [
  ...operations.filter(isRest).map((op): RouteSpec => {
    const { params, readOnly, answer, export: exported, ...rest } = op.rest as RestDeclaration<z.ZodType, unknown, `/v1${string}`, z.ZodType>;
    const wire = wireOf(`${rest.method} ${rest.path}`, rest.method, rest.path, op.input, params as Record<string, string> | undefined);
    return {
      ...rest,
      ...wire,
      id: op.id,
      scope: op.scope,
      ...(readOnly ? { readOnly: readOnly as (input: unknown) => boolean } : {}),
      // Its columns read the items `run` answers; the declaration typed them against the response schema.
      ...(exported ? { export: exported as ExportDeclaration<unknown> } : {}),
      run: answer ? async (args) => answer(await op.verb(args)) : op.verb,
    };
  }),
  {
    id: null,
    method: 'GET',
    path: OPENAPI_PATH,
    operationId: 'getOpenApiDocument',
    tag: 'Meta',
    summary: 'This OpenAPI 3.1 document',
    description: 'Needs no credentials.',
    response: OpenApiDocumentSchema,
    responseDescription: 'The OpenAPI document of every route.',
    errors: [],
    auth: 'none',
    input: NoFields,
    paramFields: {},
    params: null,
    query: null,
    body: null,
    // Loaded on first use, and handed this very table to render (the document imports no route
    // table: server/import-cycles.test.ts). It depends only on code, so it is built once per process.
    run: async () => (await import('../openapi/document')).getOpenApiDocument(restRoutes),
  },
];

/**
 * The HTTP method exports of the route file for `path`: its table entries run through the
 * REST pipeline (server/rest/route.ts); other methods answer 405 with `Allow`.
 * Usage, in `app/v1/…/route.ts`: `export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers('/v1/…');`
 * @throws Error at load time when the table has no entry for the path (a route file without an entry).
 */
export function routeHandlers(path: RouteSpec['path']): Record<'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', NextHandler> {
  const entries = restRoutes.filter((r) => r.path === path);
  if (entries.length === 0) throw new Error(`No route-table entry for ${path} (server/rest/routes.ts)`);
  return restRoute(Object.fromEntries(entries.map((r) => [r.method, r])));
}
