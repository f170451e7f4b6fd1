import { z } from 'zod';

/** docs/product.md §5: every id (org, node, unit, reservation, VM). */
export const idPattern = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export const Id = z.string().regex(idPattern, 'must be 1–128 characters of A–Z, a–z, 0–9, ".", "_", ":" or "-", starting with a letter or digit');
export type Id = z.infer<typeof Id>;

/** A list of 1–`max` distinct ids (`uniqueItems` in the document, which cannot see the refinement). */
export function distinctIds(max: number) {
  return z
    .array(Id)
    .min(1, 'must name at least one id')
    .max(max, `must name at most ${max} ids`)
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      for (const [i, id] of ids.entries()) {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: `duplicate id "${id}"` });
        seen.add(id);
      }
    })
    .meta({ uniqueItems: true });
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether `s` has at most `max` Unicode code points, without allocating: a code point is one
 * or two UTF-16 units, so the answer is known from `s.length` alone unless it lies between
 * `max` and `2 * max`, and then a bounded scan counts. (Spreading `[...s]` first made one
 * 100 MiB reason allocate an array of 100 million strings.)
 */
export function hasAtMostCodePoints(s: string, max: number): boolean {
  if (s.length <= max) return true;
  if (s.length > 2 * max) return false;
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++count > max) return false;
  }
  return true;
}

// The document's form of the checks below (JSON Schema counts `maxLength` in code points, as
// they do): no NUL anywhere; with `nonBlank`, a character that is not white space too (`\S` is
// the complement of what `trim()` removes).
const NO_NUL_PATTERN = '^[^\\u0000]*$';
const NON_BLANK_PATTERN = '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$';

/**
 * Free text that PostgreSQL can store and a person can read: at most `max` characters
 * (Unicode code points, so an emoji counts once), no NUL (`text` refuses it) and no lone
 * UTF-16 surrogate (not Unicode at all; `jsonb` refuses it); with `nonBlank`, not empty nor
 * only white space. The length is checked first and cheaply; the other checks only run on
 * text within it. The refinement is invisible to the OpenAPI generator, so the same limits
 * go into the document as `maxLength`, `minLength` and `pattern` from here.
 */
export function freeText(max: number, opts: { nonBlank?: boolean } = {}) {
  return z
    .string()
    .superRefine((s, ctx) => {
      if (!hasAtMostCodePoints(s, max)) {
        ctx.addIssue({ code: 'custom', message: `must be at most ${max} characters` });
        return;
      }
      if (s.includes('\u0000')) ctx.addIssue({ code: 'custom', message: 'must not contain NUL characters' });
      if (LONE_SURROGATE.test(s)) ctx.addIssue({ code: 'custom', message: 'must be valid Unicode (it contains a lone surrogate)' });
      if (opts.nonBlank && s.trim().length === 0) ctx.addIssue({ code: 'custom', message: 'must not be empty' });
    })
    .meta(opts.nonBlank ? { minLength: 1, maxLength: max, pattern: NON_BLANK_PATTERN } : { maxLength: max, pattern: NO_NUL_PATTERN });
}

/** Sorts ids by code point (docs/product.md §5: "other id lists are sorted by code point"). */
export function sortByCodePoint(ids: Iterable<string>): string[] {
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Orders unit ids as the node lists its units; ids the node no longer has (removed by a
 * topology change) follow, by code point.
 * @param positions unit id → position in the node's current topology.
 */
export function sortUnitIds(unitIds: Iterable<string>, positions: ReadonlyMap<string, number>): string[] {
  return [...unitIds].sort((a, b) => {
    const pa = positions.get(a);
    const pb = positions.get(b);
    if (pa !== undefined && pb !== undefined) return pa - pb;
    if (pa !== undefined) return -1;
    if (pb !== undefined) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/** A new random id with a readable prefix, e.g. `evt_3f9c…`. */
export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll('-', '')}`;
}
