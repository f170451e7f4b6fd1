/**
 * The shape of one REST operation in the route table (server/rest/routes.ts), apart from the
 * table itself: what renders the table (server/openapi/document.ts) and what tests it import
 * this, not the table's module, so that nothing the table loads imports the table back.
 */
import type { z } from 'zod';
import type { Ctx } from '../context';
import type { ExportDeclaration } from '../exports/declaration';
import type { RestDeclaration } from '../operation';
import type { OperationScope } from '../policy';

/** A strict object schema: what REST reads a path, a query or a body with. */
export type WireObject = z.ZodObject<z.ZodRawShape, z.core.$strict>;

/** One operation of the REST API, derived from its declaration (server/operation.ts). */
export type RouteSpec = Omit<RestDeclaration<z.ZodType, unknown, `/v1${string}`, z.ZodType>, 'params' | 'readOnly' | 'answer' | 'export'> & {
  /** The list's export (server/exports/answer.ts), over the items REST answers. */
  export?: ExportDeclaration<unknown>;
  /** The operation's id (`reservations.reclaim`), or null for the document itself. */
  id: string | null;
  /** `none` for the few public routes (the OpenAPI document). */
  auth?: 'none';
  /** The API key scope the operation needs (docs/product.md §2); absent only on public routes. */
  scope?: OperationScope;
  /**
   * The verb's input schema, with the query string's form of each field that is not a string
   * on a GET (server/rest/wire.ts): what the path merged with the query or body is parsed with.
   */
  input: z.ZodType;
  /** Each path parameter → the input field it fills (`id` → `reservationId`), in the template's order. */
  paramFields: Readonly<Record<string, string>>;
  /** The path parameters, as the document renders them; null without any. */
  params: WireObject | null;
  /** The query parameters (a GET's input fields but the path's); null without any. */
  query: WireObject | null;
  /** The JSON body (a POST, PUT or PATCH's input fields but the path's); null for a GET. */
  body: WireObject | null;
  readOnly?: (input: unknown) => boolean;
  /** Runs the verb and shapes what REST answers. */
  run: (args: { ctx: Ctx; input: unknown }) => Promise<unknown>;
};
