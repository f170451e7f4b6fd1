/**
 * One declaration per operation (docs/architecture.md "Add an operation"): the verb, its input
 * schema, how REST publishes it (or why it does not), whether tRPC calls it a query or a
 * mutation, and where the console offers it. The REST route table (server/rest/routes.ts), the
 * tRPC router (server/trpc/root.ts), the OpenAPI document, the proxy's 405s and the coverage of
 * the authorization matrix and the hostile corpora are all derived from these declarations
 * (server/operations.ts lists them), keyed by one id: `<router>.<procedure>`.
 *
 * The verb's input schema is the only request schema: REST validates the path, query or body
 * merged into one input with it, mapping each path parameter to its input field
 * (`params: { id: 'reservationId' }`), so no route rebuilds an input by hand.
 */
import { z } from 'zod';
import type { ConsoleActionId } from './console-actions';
import type { Ctx } from './context';
import type { ErrorCode } from './errors';
import type { ExportDeclaration, ListItem } from './exports/declaration';
import type { DeclaredMethod } from './http/methods';
import type { OperationScope } from './policy';

/** The parameter names of a path template: `'/v1/nodes/{nodeId}/reservations/{id}'` → `'nodeId' | 'id'`. */
export type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}` ? K | PathParams<Rest> : never;

/** The field names of an object input schema (`never` for a procedure that takes no input). */
export type InputField<I> = I extends z.ZodObject<infer S> ? keyof S & string : never;

/**
 * Each path parameter → the input field it fills. A parameter named like an input field maps to
 * it by default (`{nodeId}` → `nodeId`); any other must be named (`{id}` → `reservationId`).
 */
export type ParamMap<P extends string, F extends string> = { [K in PathParams<P> as K extends F ? never : K]: F } & {
  [K in PathParams<P> as K extends F ? K : never]?: F;
};

/** The tags the document groups operations under. */
export type RestTag = 'Nodes' | 'Reservations' | 'Utilisation' | 'VMs' | 'Audit' | 'Events' | 'Webhooks' | 'Orgs' | 'API keys' | 'Meta';

/** How the public REST API publishes an operation (docs/product.md §5). */
export type RestDeclaration<I extends z.ZodType, O, P extends `/v1${string}`, R extends z.ZodType> = {
  method: DeclaredMethod;
  /** OpenAPI path template; its route file is `app/v1/…/route.ts` with `{x}` as `[x]`. */
  path: P;
  /** The published operationId (clients are generated with it). */
  operationId: string;
  tag: RestTag;
  summary: string;
  description?: string;
  /** Path parameters whose name is not their input field's. */
  params?: ParamMap<P, InputField<I>>;
  /** Status of a successful answer (200 unless said). */
  status?: number;
  /** The success answer's schema (server/openapi/schemas.ts); `operation()` checks it against what the verb returns. */
  response: R;
  responseDescription: string;
  /** Domain errors of the verb beyond those the pipeline adds to every route (400, 401, 413, 415, 429, 503). */
  errors: ErrorCode[];
  /**
   * `refused` where the answer must never be stored, so a replay could not repeat it: creating
   * an API key, whose secret is shown once and kept nowhere (docs/product.md §9 m). An
   * `Idempotency-Key` there is 400, rather than ignored.
   */
  idempotency?: 'refused';
  /**
   * Whether this request writes nothing (a dry run): then, under an `Idempotency-Key`, the verb
   * runs on its own read-only snapshot first and only the stored response is written after it.
   */
  readOnly?: (input: z.output<I>) => boolean;
  /** What REST answers when it publishes less than the verb returns (the console's extras). */
  answer?: (result: O) => z.output<R>;
  /**
   * A list GET that also answers `Accept: text/csv` and `application/x-ndjson` (docs/product.md
   * §5.8): its file name, its window's meaning and its CSV columns, over the items REST answers.
   */
  export?: ExportDeclaration<ListItem<z.output<R>>>;
};

/**
 * An example request and its answer, as the document shows it: its path parameters, its query as
 * a client writes it, its JSON body. Every operation's are played against the demo fleet and kept
 * in server/openapi/examples.json (server/openapi/examples-capture.ts writes it).
 */
export type RestExample<Answer> = {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
  response: Answer;
};

/** An operation the public REST API does not publish, and why. */
export type NoRest = { none: string };

/** Where the console offers an operation, or why it is for programs only. */
export type ConsoleOffer = ConsoleActionId | { apiOnly: string };

/** A verb of server/: `({ ctx, input })`, permission first (docs/architecture.md). */
export type Verb<I extends z.ZodType, O> = (args: { ctx: Ctx; input: z.output<I> }) => Promise<O>;

/** One operation, as declared. */
export type Operation<I extends z.ZodType = z.ZodType, O = unknown> = {
  verb: Verb<I, O>;
  /** The verb's input schema: tRPC's input, and REST's path + query or body merged. */
  input: I;
  /** tRPC's procedure type; REST reads `query` as GET. */
  kind: 'query' | 'mutation';
  /**
   * What the caller must hold beyond its org's relation (docs/product.md §2 Roles and scopes): the
   * API key scope, which also decides the roles that may call it (`roleGrants` in
   * server/policy.ts). Checked by both transports before the input is read.
   */
  scope: OperationScope;
  rest: RestDeclaration<I, O, `/v1${string}`, z.ZodType> | NoRest;
  console: ConsoleOffer;
};

/**
 * The input of an operation that takes none: anything sent is refused (400), as REST refuses an
 * unknown field, instead of being silently ignored.
 */
export const NoInput = z.undefined({ error: 'takes no input' });
export type NoInput = z.infer<typeof NoInput>;

// ---- The response check ----------------------------------------------------------------

type KeysOf<T> = T extends unknown ? keyof T : never;
type SameKeys<A, B> = [KeysOf<A>] extends [KeysOf<B>] ? ([KeysOf<B>] extends [KeysOf<A>] ? true : false) : false;
type IsAny<T> = 0 extends 1 & T ? true : false;

/**
 * Whether what REST answers (`A`) is what the schema documents (`S`): every value the schema
 * accepts is one the verb may answer, and both name the same fields (across union members). The
 * schema may be the narrower of the two: the reclaim's answer types its four extra fields as
 * optional, and the schema says which pair each variant carries. server/openapi/schemas.ts pins
 * each schema to its view type exactly.
 */
export type Conforms<A, S> = IsAny<A> extends true ? false : [S] extends [A] ? SameKeys<A, S> : false;

/** What `operation()` yields for a REST answer its schema does not describe: no operation, so the group's `satisfies` fails there. */
export type ResponseMismatch = { responseMismatch: 'the response schema does not describe what the verb returns' };

/**
 * Declares one operation (docs/architecture.md "Add an operation"). When the REST response
 * schema does not describe what the verb (or `answer`) returns, the result is a
 * `ResponseMismatch`, which its group's `satisfies OperationGroup` refuses at compile time
 * (server/operation.type-test.ts). The check sits in the result, not the argument, so that
 * TypeScript still infers every type parameter from the declaration.
 * @returns the declaration, unchanged.
 */
export function operation<
  I extends z.ZodType,
  O,
  K extends 'query' | 'mutation',
  const P extends `/v1${string}` = never,
  R extends z.ZodType = never,
  Answered = never,
>(op: {
  verb: Verb<I, O>;
  input: I;
  kind: K;
  scope: OperationScope;
  rest: (Omit<RestDeclaration<I, O, P, R>, 'answer'> & { answer?: (result: O) => Answered }) | NoRest;
  console: ConsoleOffer;
}): [R] extends [never] // no REST answer to check
  ? Operation<I, O> & { kind: K }
  : Conforms<[Answered] extends [never] ? O : Answered, z.output<R>> extends true
    ? Operation<I, O> & { kind: K }
    : ResponseMismatch {
  return op as never;
}

/**
 * Any declared operation. `any` because a verb's input sits in argument position: an operation of
 * a narrower input is not an `Operation<z.ZodType>`, and only the group's own type keeps each one's.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any>;

/** A router's operations, by procedure name. */
export type OperationGroup = Record<string, AnyOperation>;

/** Whether an operation is published over REST. */
export const isRest = <I extends z.ZodType, O>(op: Operation<I, O>): op is Operation<I, O> & { rest: RestDeclaration<I, O, `/v1${string}`, z.ZodType> } =>
  !('none' in op.rest);
