/**
 * What changed between two revisions of the contract (docs/product.md §5 "Revisions and the
 * changelog"), each change named by oasdiff's check id and level. oasdiff is a Go program and no
 * maintained JavaScript library classifies changes with its ids, so this is a small classifier of
 * our own over the contract projection (./contract.ts): operations, parameters, request bodies and
 * their properties, response statuses, media types and properties, enum values, types and the
 * limits a request field has. A difference it has no id for is still reported, as
 * `unclassified-change` (ours, not oasdiff's), and counted as breaking: a person must look.
 */
import type { ContractProjection } from './contract';

/** oasdiff's levels: ERR breaks a client, WARN may, INFO does not. */
export type ChangeLevel = 'ERR' | 'WARN' | 'INFO';

/** The oasdiff check ids this classifier gives, with their oasdiff level and wording. */
export const checks = {
  'endpoint-added': ['INFO', 'added the endpoint'],
  'api-removed-without-deprecation': ['ERR', 'removed the endpoint without a deprecation'],
  'new-required-request-parameter': ['ERR', 'added the new required request parameter'],
  'new-optional-request-parameter': ['INFO', 'added the new optional request parameter'],
  'request-parameter-removed': ['WARN', 'removed the request parameter'],
  'request-parameter-became-required': ['ERR', 'the request parameter became required'],
  'request-parameter-became-optional': ['INFO', 'the request parameter became optional'],
  'request-parameter-type-changed': ['ERR', 'changed the type of the request parameter'],
  'request-parameter-enum-value-added': ['INFO', 'added the enum value to the request parameter'],
  'request-parameter-enum-value-removed': ['ERR', 'removed the enum value from the request parameter'],
  'added-required-request-body': ['ERR', 'added a required request body'],
  'added-optional-request-body': ['INFO', 'added an optional request body'],
  'request-body-became-required': ['ERR', 'the request body became required'],
  'request-body-became-optional': ['INFO', 'the request body became optional'],
  'request-body-media-type-removed': ['ERR', 'removed the media type of the request body'],
  'request-body-media-type-added': ['INFO', 'added a media type to the request body'],
  'new-required-request-property': ['ERR', 'added the new required request property'],
  'new-optional-request-property': ['INFO', 'added the new optional request property'],
  'request-property-removed': ['WARN', 'removed the request property'],
  'request-property-became-required': ['ERR', 'the request property became required'],
  'request-property-became-optional': ['INFO', 'the request property became optional'],
  'request-property-type-changed': ['ERR', 'changed the type of the request property'],
  'request-property-enum-value-added': ['INFO', 'added the enum value to the request property'],
  'request-property-enum-value-removed': ['ERR', 'removed the enum value from the request property'],
  'request-property-max-length-decreased': ['ERR', 'decreased the maximum length of the request property'],
  'request-property-max-length-increased': ['INFO', 'increased the maximum length of the request property'],
  'request-property-min-length-increased': ['ERR', 'increased the minimum length of the request property'],
  'request-property-min-length-decreased': ['INFO', 'decreased the minimum length of the request property'],
  'request-property-max-items-decreased': ['ERR', 'decreased the maximum number of items of the request property'],
  'request-property-max-items-increased': ['INFO', 'increased the maximum number of items of the request property'],
  'request-property-min-items-increased': ['ERR', 'increased the minimum number of items of the request property'],
  'request-property-min-items-decreased': ['INFO', 'decreased the minimum number of items of the request property'],
  'request-property-max-decreased': ['ERR', 'decreased the maximum of the request property'],
  'request-property-max-increased': ['INFO', 'increased the maximum of the request property'],
  'request-property-min-increased': ['ERR', 'increased the minimum of the request property'],
  'request-property-min-decreased': ['INFO', 'decreased the minimum of the request property'],
  'response-success-status-added': ['INFO', 'added the success response status'],
  'response-success-status-removed': ['ERR', 'removed the success response status'],
  'response-non-success-status-added': ['INFO', 'added the non-success response status'],
  'response-non-success-status-removed': ['INFO', 'removed the non-success response status'],
  'response-media-type-added': ['INFO', 'added a media type to the response with the status'],
  'response-media-type-removed': ['ERR', 'removed the media type from the response with the status'],
  'response-optional-property-added': ['INFO', 'added the optional property to the response with the status'],
  'response-required-property-added': ['INFO', 'added the required property to the response with the status'],
  'response-optional-property-removed': ['WARN', 'removed the optional property from the response with the status'],
  'response-required-property-removed': ['ERR', 'removed the required property from the response with the status'],
  'response-property-became-optional': ['ERR', 'the response property became optional'],
  'response-property-became-required': ['INFO', 'the response property became required'],
  'response-property-type-changed': ['ERR', 'changed the type of the response property'],
  'response-property-enum-value-added': ['WARN', 'added the enum value to the response property'],
  'response-property-enum-value-removed': ['INFO', 'removed the enum value from the response property'],
  'unclassified-change': ['ERR', 'changed the operation in a way no other check names'],
} as const satisfies Record<string, readonly [ChangeLevel, string]>;

export type CheckId = keyof typeof checks;

/** One change to one operation. `breaking` is oasdiff's ERR or WARN. */
export type ContractChange = {
  id: CheckId;
  level: ChangeLevel;
  breaking: boolean;
  /** `METHOD path`, as the projection keys operations. */
  operation: string;
  /** Where in the operation: a parameter, a property path (`items/status`), a status code. */
  where: string;
  text: string;
};

type Schema = Record<string, unknown>;
type Field = { schema: Schema; required: boolean };

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows `$ref`s into the projection's `schemas` (component parameters and responses are keyed `parameters/X`, `responses/X`). */
function resolve(c: ContractProjection, v: unknown, seen = 0): Schema {
  if (!isObject(v)) return {};
  const ref = v.$ref;
  if (typeof ref !== 'string' || seen > 16) return v;
  const m = /^#\/components\/(schemas|parameters|responses)\/(.+)$/.exec(ref);
  const key = m ? (m[1] === 'schemas' ? m[2]! : `${m[1]}/${m[2]}`) : ref;
  return resolve(c, c.schemas[key], seen + 1);
}

/** `not: {}` (or `false`): the property is declared never present, which is the same as absent for a client. */
const isNever = (s: unknown) => s === false || (isObject(s) && isObject(s.not) && Object.keys(s.not).length === 0);

/**
 * Every property under a schema, by path (`a/b`, arrays as `a/items/b`, as oasdiff writes them),
 * with whether it is always present. Variants (`anyOf`/`oneOf`) merge: a property is required
 * only when every variant requires it; `allOf` parts merge with any part's `required` counting.
 */
function flatten(c: ContractProjection, raw: unknown, prefix = '', depth = 0, out = new Map<string, Field>()): Map<string, Field> {
  const s = resolve(c, raw);
  if (depth > 8) return out;
  if (s.type === 'array' && s.items !== undefined) return flatten(c, s.items, prefix ? `${prefix}/items` : 'items', depth + 1, out);
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) flatten(c, part, prefix, depth + 1, out);
  const variants = [...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])];
  if (variants.length > 0) {
    const maps = variants.map((v) => flatten(c, v, prefix, depth + 1));
    for (const key of new Set(maps.flatMap((m) => [...m.keys()]))) {
      const present = maps.map((m) => m.get(key));
      const first = present.find((f) => f !== undefined)!;
      out.set(key, { schema: first.schema, required: present.every((f) => f?.required) });
    }
  }
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  for (const [name, child] of Object.entries(isObject(s.properties) ? s.properties : {})) {
    if (isNever(child)) continue;
    const path = prefix ? `${prefix}/${name}` : name;
    const resolved = resolve(c, child);
    const known = out.get(path);
    out.set(path, { schema: resolved, required: required.has(name) || (known?.required ?? false) });
    flatten(c, resolved, path, depth + 1, out);
  }
  return out;
}

const typeOf = (s: Schema) => JSON.stringify(s.type ?? (s.const !== undefined ? typeof s.const : null));
const enumOf = (s: Schema): unknown[] => (Array.isArray(s.enum) ? s.enum : []);

type Emit = (id: CheckId, where: string) => void;

/** Type, enum and limits of one field present in both revisions. */
function compareField(emit: Emit, side: 'request' | 'response' | 'parameter', where: string, before: Schema, after: Schema): void {
  const base = side === 'parameter' ? 'request-parameter' : `${side}-property`;
  if (typeOf(before) !== typeOf(after)) emit(`${base}-type-changed` as CheckId, where);
  const was = enumOf(before).map((v) => JSON.stringify(v));
  const now = enumOf(after).map((v) => JSON.stringify(v));
  if (now.some((v) => !was.includes(v)) && was.length > 0) emit(`${base}-enum-value-added` as CheckId, where);
  if (was.some((v) => !now.includes(v)) && now.length > 0) emit(`${base}-enum-value-removed` as CheckId, where);
  if (side !== 'request') return;
  // A limit on what a client sends: a tighter one refuses requests that used to pass.
  const limits: [string, string, 'max' | 'min'][] = [
    ['maxLength', 'max-length', 'max'],
    ['minLength', 'min-length', 'min'],
    ['maxItems', 'max-items', 'max'],
    ['minItems', 'min-items', 'min'],
    ['maximum', 'max', 'max'],
    ['minimum', 'min', 'min'],
  ];
  for (const [key, name, kind] of limits) {
    const a = before[key];
    const b = after[key];
    if (typeof a !== 'number' || typeof b !== 'number' || a === b) continue;
    const tighter = kind === 'max' ? b < a : b > a;
    const verb = kind === 'max' ? (tighter ? 'decreased' : 'increased') : tighter ? 'increased' : 'decreased';
    emit(`request-property-${name}-${verb}` as CheckId, where);
  }
}

function compareRequestBody(c0: ContractProjection, c1: ContractProjection, emit: Emit, b0: Schema | undefined, b1: Schema | undefined): void {
  if (!b0 && !b1) return;
  if (!b0 || !b1) {
    if (b1) emit(b1.required ? 'added-required-request-body' : 'added-optional-request-body', 'body');
    else emit('unclassified-change', 'request body removed');
    return;
  }
  if (!b0.required && b1.required) emit('request-body-became-required', 'body');
  if (b0.required && !b1.required) emit('request-body-became-optional', 'body');
  const m0 = isObject(b0.content) ? b0.content : {};
  const m1 = isObject(b1.content) ? b1.content : {};
  for (const media of Object.keys(m0)) if (!(media in m1)) emit('request-body-media-type-removed', media);
  for (const media of Object.keys(m1)) if (!(media in m0)) emit('request-body-media-type-added', media);
  for (const media of Object.keys(m0).filter((m) => m in m1)) {
    const p0 = flatten(c0, (m0[media] as Schema).schema);
    const p1 = flatten(c1, (m1[media] as Schema).schema);
    for (const [path, f] of p1) {
      const old = p0.get(path);
      if (!old) emit(f.required ? 'new-required-request-property' : 'new-optional-request-property', path);
      else {
        if (!old.required && f.required) emit('request-property-became-required', path);
        if (old.required && !f.required) emit('request-property-became-optional', path);
        compareField(emit, 'request', path, old.schema, f.schema);
      }
    }
    for (const path of p0.keys()) if (!p1.has(path)) emit('request-property-removed', path);
  }
}

function compareResponses(c0: ContractProjection, c1: ContractProjection, emit: Emit, r0: Schema, r1: Schema): void {
  for (const status of Object.keys(r0)) {
    if (!(status in r1)) emit(status.startsWith('2') ? 'response-success-status-removed' : 'response-non-success-status-removed', status);
  }
  for (const status of Object.keys(r1)) {
    if (!(status in r0)) {
      emit(status.startsWith('2') ? 'response-success-status-added' : 'response-non-success-status-added', status);
      continue;
    }
    const m0 = resolve(c0, r0[status]).content;
    const m1 = resolve(c1, r1[status]).content;
    const media0 = isObject(m0) ? m0 : {};
    const media1 = isObject(m1) ? m1 : {};
    for (const media of Object.keys(media0)) if (!(media in media1)) emit('response-media-type-removed', `${status} ${media}`);
    for (const media of Object.keys(media1)) if (!(media in media0)) emit('response-media-type-added', `${status} ${media}`);
    for (const media of Object.keys(media0).filter((m) => m in media1)) {
      const p0 = flatten(c0, (media0[media] as Schema).schema);
      const p1 = flatten(c1, (media1[media] as Schema).schema);
      for (const [path, f] of p1) {
        const old = p0.get(path);
        const where = `${status} ${path}`;
        if (!old) emit(f.required ? 'response-required-property-added' : 'response-optional-property-added', where);
        else {
          if (old.required && !f.required) emit('response-property-became-optional', where);
          if (!old.required && f.required) emit('response-property-became-required', where);
          compareField(emit, 'response', where, old.schema, f.schema);
        }
      }
      for (const [path, f] of p0)
        if (!p1.has(path)) emit(f.required ? 'response-required-property-removed' : 'response-optional-property-removed', `${status} ${path}`);
    }
  }
}

function compareParameters(c0: ContractProjection, c1: ContractProjection, emit: Emit, l0: unknown, l1: unknown): void {
  const byKey = (c: ContractProjection, list: unknown) =>
    new Map((Array.isArray(list) ? list : []).map((p) => resolve(c, p)).map((p) => [`${String(p.in)} ${String(p.name)}`, p] as const));
  const p0 = byKey(c0, l0);
  const p1 = byKey(c1, l1);
  for (const [key, p] of p1) {
    const old = p0.get(key);
    if (!old) emit(p.required ? 'new-required-request-parameter' : 'new-optional-request-parameter', key);
    else {
      if (!old.required && p.required) emit('request-parameter-became-required', key);
      if (old.required && !p.required) emit('request-parameter-became-optional', key);
      compareField(emit, 'parameter', key, resolve(c0, old.schema), resolve(c1, p.schema));
    }
  }
  for (const key of p0.keys()) if (!p1.has(key)) emit('request-parameter-removed', key);
}

/** The JSON of an operation with every reference followed, to tell whether anything at all changed. */
function expand(c: ContractProjection, v: unknown, depth = 0): unknown {
  if (depth > 24) return v;
  if (Array.isArray(v)) return v.map((x) => expand(c, x, depth + 1));
  if (!isObject(v)) return v;
  if (typeof v.$ref === 'string') return expand(c, resolve(c, v), depth + 1);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(c, x, depth + 1)]));
}

/**
 * Classifies every change from one revision of the contract to the next (docs/product.md §5
 * "Revisions and the changelog"), per operation, with oasdiff's check ids.
 * @param before the earlier revision's contract projection.
 * @param after the later one.
 * @returns the changes, by operation then as found; none when the two are equal.
 */
export function classifyChanges(before: ContractProjection, after: ContractProjection): ContractChange[] {
  const changes: ContractChange[] = [];
  const ops = [...new Set([...Object.keys(before.operations), ...Object.keys(after.operations)])].sort();
  for (const operation of ops) {
    const start = changes.length;
    const emit: Emit = (id, where) => {
      const [level, text] = checks[id];
      changes.push({ id, level, breaking: level !== 'INFO', operation, where, text });
    };
    const o0 = before.operations[operation];
    const o1 = after.operations[operation];
    if (!isObject(o0) || !isObject(o1)) {
      emit(o1 ? 'endpoint-added' : 'api-removed-without-deprecation', operation);
      continue;
    }
    compareParameters(before, after, emit, o0.parameters, o1.parameters);
    compareRequestBody(
      before,
      after,
      emit,
      isObject(o0.requestBody) ? resolve(before, o0.requestBody) : undefined,
      isObject(o1.requestBody) ? resolve(after, o1.requestBody) : undefined,
    );
    compareResponses(before, after, emit, isObject(o0.responses) ? o0.responses : {}, isObject(o1.responses) ? o1.responses : {});
    if (changes.length === start && JSON.stringify(expand(before, o0)) !== JSON.stringify(expand(after, o1))) emit('unclassified-change', operation);
  }
  return changes;
}

/** `major.minor.patch` as numbers; anything else is not a version this API uses. */
function parseVersion(v: string): [number, number, number] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/**
 * Whether a revision's `info.version` may follow the previous one's (docs/product.md §5
 * "Revisions and the changelog"): it must be a higher semantic version, and a higher major
 * one when any change breaks a client of the previous revision.
 * @returns what is wrong, or undefined when the bump is right.
 */
export function checkVersionBump(previous: string, next: string, changes: readonly ContractChange[]): string | undefined {
  const a = parseVersion(previous);
  const b = parseVersion(next);
  if (!a || !b) return `info.version must be major.minor.patch (got ${previous} → ${next})`;
  const cmp = b[0] - a[0] || b[1] - a[1] || b[2] - a[2];
  if (cmp <= 0) return `info.version must increase with every revision (${previous} → ${next})`;
  const breaking = changes.filter((c) => c.breaking);
  if (breaking.length > 0 && b[0] <= a[0]) {
    return `${breaking.length} breaking change(s) need a major version bump (${previous} → ${next}): ${breaking
      .slice(0, 5)
      .map((c) => `${c.id} at ${c.operation} ${c.where}`)
      .join('; ')}`;
  }
  return undefined;
}
