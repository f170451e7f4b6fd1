/**
 * How an operation's one input schema travels over REST (server/operation.ts): its path
 * parameters fill input fields, a GET's other fields are its query string, a POST, PUT or
 * PATCH's are its JSON body. The route pipeline (./route.ts) parses the merged input with the
 * verb's schema; the OpenAPI document renders the three parts derived here.
 */
import { z } from 'zod';
import { WaitQuery, WaitSeconds } from '../events/schemas';
import { Limit, LimitNumber } from '../pagination';
import type { PathParams } from '../operation';
import type { WireObject } from './route-spec';

/**
 * A field that is not a string, as a query string carries it: digits for `limit` and `wait` (the
 * only two). A field without a form here cannot be a query parameter (`wireOf` refuses it).
 */
const queryForms = new Map<z.ZodType, z.ZodType>([
  [LimitNumber, Limit],
  [WaitSeconds, WaitQuery],
]);

/** The parameter names of a path template, in order. */
export function pathParamNames<P extends string>(path: P): PathParams<P>[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as PathParams<P>);
}

const unwrapOptional = (s: z.ZodType): { inner: z.ZodType; optional: boolean } =>
  s instanceof z.ZodOptional ? { inner: s.unwrap() as z.ZodType, optional: true } : { inner: s, optional: false };

/** A string, a string enum or an optional one: what a query string carries as it is. */
function isStringLike(s: z.ZodType): boolean {
  const { inner } = unwrapOptional(s);
  const type = inner._zod.def.type;
  // A pipe from a string (a timestamp read into a Date) reads its input as a string too.
  return type === 'string' || type === 'enum' || (inner instanceof z.ZodPipe && (inner.in as z.ZodType)._zod.def.type === 'string');
}

export type Wire = {
  input: z.ZodType;
  paramFields: Record<string, string>;
  params: WireObject | null;
  query: WireObject | null;
  body: WireObject | null;
};

/**
 * The REST parts of an operation's input.
 * @param where `METHOD path`, for the messages.
 * @param method the declared method: GET reads a query, every other a body.
 * @param path the path template.
 * @param input the verb's input schema: a strict object.
 * @param renamed the declaration's `params` (those not named like their field).
 * @throws Error at load time for a declaration REST cannot carry: a non-object input, a path
 *   parameter naming no input field, or a query field with no query-string form.
 */
export function wireOf(where: string, method: string, path: string, input: z.ZodType, renamed: Readonly<Record<string, string>> = {}): Wire {
  if (!(input instanceof z.ZodObject)) throw new Error(`${where}: a REST operation's input must be an object schema`);
  const shape = input.shape as Record<string, z.ZodType>;
  const paramFields: Record<string, string> = {};
  const pathShape: Record<string, z.ZodType> = {};
  for (const name of pathParamNames(path)) {
    const field = renamed[name] ?? name;
    if (!(field in shape)) throw new Error(`${where}: path parameter {${name}} fills no input field ("${field}")`);
    paramFields[name] = field;
    pathShape[name] = shape[field]!;
  }
  const fromPath = new Set(Object.values(paramFields));
  const rest = Object.fromEntries(Object.entries(shape).filter(([k]) => !fromPath.has(k)));
  if (method !== 'GET') {
    // The input's own document keywords (e.g. a field required only with another's value) stay on the body it documents.
    const { id: _id, ...meta } = input.meta() ?? {};
    const body = z.strictObject(rest);
    return { input, paramFields, params: names(pathShape), query: null, body: Object.keys(meta).length > 0 ? body.meta(meta) : body };
  }
  const forms: Record<string, z.ZodType> = {};
  for (const [k, s] of Object.entries(rest)) {
    if (isStringLike(s)) continue;
    const { inner, optional } = unwrapOptional(s);
    const form = queryForms.get(inner);
    if (!form) throw new Error(`${where}: query field "${k}" has no query-string form (server/rest/wire.ts queryForms)`);
    forms[k] = optional ? form.optional() : form;
  }
  const query = Object.keys(rest).length > 0 ? z.strictObject({ ...rest, ...forms }) : null;
  return { input: Object.keys(forms).length > 0 ? input.extend(forms) : input, paramFields, params: names(pathShape), query, body: null };
}

const names = (shape: Record<string, z.ZodType>): WireObject | null => (Object.keys(shape).length > 0 ? z.strictObject(shape) : null);
