/**
 * The shape of one REST operation in the route table (server/rest/routes.ts), apart from the
 * table itself: what renders the table (server/openapi/document.ts) and what tests it import
 * this, not the table's module, so that nothing the table loads imports the table back.
 */
import type { z } from 'zod';
import type { ErrorCode } from '../errors';
import type { DeclaredMethod } from '../http/methods';
import type { RestHandler } from './route';

/** One operation of the REST API. */
export type RouteSpec<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> = RestHandler<P, Q, B> & {
  method: DeclaredMethod;
  /** OpenAPI path template; its route file is `app/v1/…/route.ts` with `{x}` as `[x]`. */
  path: `/v1${string}`;
  operationId: string;
  tag: 'Nodes' | 'Reservations' | 'VMs' | 'Audit' | 'Orgs' | 'API keys' | 'Meta';
  summary: string;
  description?: string;
  /** The success answer's schema (server/openapi/schemas.ts), checked against the verb's type there. */
  response: z.ZodType;
  responseDescription: string;
  /** Domain errors of the verb beyond those the pipeline adds to every route (400, 401, 413, 415, 429). */
  errors: ErrorCode[];
  /**
   * Where the console offers this route to a person (a page, or a page's action), or
   * `api-only: <why>`. docs/product.md §6: everything the API does for a person, the console does.
   */
  console: string;
};
