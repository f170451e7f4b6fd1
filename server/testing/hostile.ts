/**
 * The hostile-input corpus's shared parts (docs/product.md §8 R3; docs/architecture.md "Hostile
 * input"): the hostile values, the mutations derived from a valid input, the judgement of an
 * answer, and a snapshot of every table. server/rest/hostile-input.test.ts and
 * server/trpc/hostile-input.test.ts drive every REST route and tRPC procedure with them.
 */
import type { Db } from '@/db/client';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';

/** A value every text field must refuse (400): PostgreSQL cannot store it, or it is too long to mean anything. */
export type Hostile = { label: string; value: string; mustFail: boolean };

const h = (label: string, value: string, mustFail = false): Hostile => ({ label, value, mustFail });

/** Odd strings for any text position (ids, free text, query values). */
export const hostileStrings: readonly Hostile[] = [
  h('NUL', 'a\u0000b', true),
  h('lone high surrogate', 'a\ud800b', true),
  h('lone low surrogate', '\udc00', true),
  h('10k characters', 'x'.repeat(10_000), true),
  h('10k emoji', '🚀'.repeat(10_000), true),
  h('RTL override', 'gpu\u202e0-'),
  h('zero-width space', 'gpu\u200b-0'),
  h('zero-width joiner emoji', '👩\u200d💻'),
  h('emoji id', 'gpu-🚀'),
  h('combining marks', 'e\u0301\u0301\u0301'),
  h('SQL: quote and DROP', "'; DROP TABLE nodes;--"),
  h('SQL: OR 1=1', "x' OR '1'='1"),
  h('LIKE %', '%'),
  h('LIKE _', '_'),
  h('backslash', 'a\\b'),
  h('backslash quote', "\\'"),
  h('empty', ''),
  h('spaces', '   '),
  h('CRLF', 'a\r\nb'),
  h('path ..', '../..'),
  h('JSON in a string', '{"a":1}'),
  h('number-like', '1e309'),
  h('fullwidth digits', '１２'),
  h('128-char id', 'a'.repeat(128)),
  h('129-char id', 'a'.repeat(129)),
];

/**
 * Path segments as a route handler receives them (Next decodes a segment once): each is 404,
 * never 400 or 5xx (docs/product.md §5 Ids: "anything else in a path is 404").
 */
export const hostilePathValues: readonly string[] = [
  '..',
  '.',
  'a/b',
  '../n1',
  'n1/../n1',
  '%2F',
  'a%2Fb',
  '%252F',
  '%00',
  'a\u0000b',
  'a\ud800',
  'a'.repeat(129),
  'x'.repeat(10_000),
  'gpu-🚀',
  '\u202en1',
  'n1\u200b',
  "n1'; DROP TABLE nodes;--",
  '%',
  '_',
  'a\\b',
  ' ',
  '',
  'n1 ',
  'N1',
  'a'.repeat(128),
];

/** One hostile variant of a valid input. */
export type Mutation = { label: string; value: unknown; mustFail: boolean };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const EXTRA_KEYS = ["'; DROP TABLE nodes;--", '__proto__', 'constructor', 'x'.repeat(1000)];
const wrongTypes: readonly Json[] = [null, true, 42, 'str', [], {}];

function withKey(obj: Record<string, Json>, key: string, value: Json): Record<string, Json> {
  const out = { ...obj };
  // defineProperty: `{ ...o, __proto__: v }` would set the prototype, not send the key.
  Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
  return out;
}

function typeOf(v: Json): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** A long list of distinct elements shaped like `sample`, within the 64 KiB cap (so it reaches validation). */
function hugeArray(sample: Json): Json[] {
  const n = 5_000;
  if (typeof sample === 'string') return Array.from({ length: n }, (_, i) => `u${i}`);
  if (sample && typeof sample === 'object' && !Array.isArray(sample) && typeof sample.id === 'string')
    return Array.from({ length: 1_500 }, (_, i) => ({ id: `u${i}` }));
  return Array.from({ length: n }, () => sample);
}

/**
 * Every hostile variant of `valid`, walking it: at each object, extra fields, each field missing
 * and wrong types; at each array, empty, huge, a duplicate and wrong element types; at each
 * string, the hostile strings; at each number and boolean, out-of-range and wrongly typed values.
 * Arrays are walked through their first element only (the others take the same schema).
 * @param at the path of `valid` in the input (a label prefix).
 */
export function mutationsOf(valid: unknown, at = ''): Mutation[] {
  const out: Mutation[] = [];
  const walk = (v: Json, path: string, replace: (x: Json) => Json) => {
    const push = (label: string, x: Json, mustFail = false) => out.push({ label: `${path || '(input)'}: ${label}`, value: replace(x), mustFail });
    for (const w of wrongTypes) if (typeOf(w) !== typeOf(v)) push(`wrong type ${JSON.stringify(w)}`, w);
    if (typeof v === 'string') for (const s of hostileStrings) push(s.label, s.value, s.mustFail);
    else if (typeof v === 'number') for (const n of [-1, 0, 0.5, 2 ** 31, 2 ** 53 + 2, 1e308, -0]) push(`number ${n}`, n);
    else if (typeof v === 'boolean') for (const b of ['true', 1, 0]) push(`boolean as ${JSON.stringify(b)}`, b);
    else if (Array.isArray(v)) {
      const first = v[0];
      push('empty array', []);
      if (first !== undefined) {
        push('huge array', hugeArray(first), true);
        push('duplicate element', [first, ...v], true);
        for (const w of wrongTypes) if (typeOf(w) !== typeOf(first)) push(`element of wrong type ${JSON.stringify(w)}`, [w, ...v.slice(1)]);
        walk(first, `${path}[0]`, (x) => replace([x, ...v.slice(1)]));
      }
    } else if (v && typeof v === 'object') {
      for (const k of EXTRA_KEYS) push(`extra field ${JSON.stringify(k.slice(0, 24))}`, withKey(v, k, 1), true);
      for (const k of Object.keys(v)) {
        const { [k]: _dropped, ...rest } = v;
        push(`missing ${k}`, rest);
        walk(v[k]!, path ? `${path}.${k}` : k, (x) => replace(withKey(v, k, x)));
      }
    }
  };
  walk(valid as Json, at, (x) => x);
  return out;
}

/** What a corpus case expects, derived from the schema that validates it. */
export type Expectation = { status: number; reason: string };

/**
 * A case the schema refuses (or that must be refused whatever the schema says) is 400
 * `invalid_request`; one it accepts is answered as the valid input is (`acceptedStatus`: the
 * base's own answer, e.g. 404 for the unknown resource it addresses), refused by the verb with
 * 400 (a malformed cursor) or 404 (an id that names nothing) — never a 5xx, never a success
 * where the base fails.
 */
export function expectationFor(schema: z.ZodType, value: unknown, mustFail: boolean, acceptedStatus: number): { rejected: boolean; allowed: number[] } {
  const rejected = mustFail || !schema.safeParse(value).success;
  // 404: an accepted id that names nothing (a 128-character one) is unknown, even to a read.
  return { rejected, allowed: rejected ? [400] : [...new Set([acceptedStatus, 400, 404])] };
}

/** The answer to one hostile request, as the corpus judges it. */
export type Verdict = {
  label: string;
  status: number;
  problem: Record<string, unknown> | null | undefined;
  allowed: readonly number[];
  contentType?: string | null;
};

/**
 * Why an answer fails the corpus, or null: its status must be one of `allowed` (never a 5xx),
 * and an error must carry a problem with a code matching the status and a detail a person can act on.
 */
export function judge(v: Verdict): string | null {
  if (!v.allowed.includes(v.status)) return `${v.label}: ${v.status} (expected ${v.allowed.join(' or ')}) ${JSON.stringify(v.problem)?.slice(0, 300)}`;
  if (v.status < 400) return null;
  const p = v.problem;
  if (!p || p.status !== v.status || typeof p.code !== 'string' || typeof p.detail !== 'string' || p.detail.length < 10 || typeof p.title !== 'string') {
    return `${v.label}: ${v.status} without a useful problem: ${JSON.stringify(p)?.slice(0, 300)}`;
  }
  if (p.code === 'invalid_request' && !(Array.isArray(p.errors) && p.errors.length > 0) && v.status === 400)
    return `${v.label}: 400 naming no field: ${p.detail}`;
  if (v.contentType !== undefined && v.contentType !== 'application/problem+json')
    return `${v.label}: ${v.status} as ${v.contentType}, not application/problem+json`;
  return null;
}

/** Rejects when `p` has not settled within `ms`: a hostile input must never hang the server. */
export async function withinTime<T>(p: Promise<T>, label: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Columns that a refused request may change, and why:
 * - `rate_limit_windows`: every authenticated request is counted, refused or not (the limiter
 *   must count abuse too); the whole table is left out.
 * - `api_keys.last_used_at`: authentication records a key's last use (at most once a minute).
 */
const MAY_CHANGE: Record<string, 'table' | string[]> = { rate_limit_windows: 'table', api_keys: ['last_used_at'] };

/**
 * One md5 per table of the public schema (every table, found in the catalogue, so a new one is
 * covered without a change here), over all its rows in a stable order.
 * @returns table name → md5 of its rows (the empty string for an empty table).
 */
export async function snapshotTables(db: Db): Promise<Record<string, string>> {
  const tables = await db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const parts = tables
    .filter((t) => MAY_CHANGE[t.name] !== 'table')
    .map((t) => {
      const dropped = MAY_CHANGE[t.name];
      const row = Array.isArray(dropped) ? `(to_jsonb(t) - array[${dropped.map((c) => `'${c}'`).join(',')}])::text` : 't::text';
      return `select '${t.name}' as name, coalesce(md5(string_agg(${row}, ',' order by ${row})), '') as md5 from "${t.name}" t`;
    });
  const rows = await db.execute<{ name: string; md5: string }>(sql.raw(parts.join(' union all ')));
  return Object.fromEntries(rows.map((r) => [r.name, r.md5]));
}
