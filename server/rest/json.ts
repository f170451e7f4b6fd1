import { parse as parseJsonAst, type AnyNode } from '@humanwhocodes/momoa';
import { DomainError } from '../errors';

function invalid(path: string, message: string, detail: string): DomainError {
  return new DomainError('invalid_request', detail, { errors: [{ path, message }] });
}

function findDuplicateKey(node: AnyNode, path: string[]): string[] | null {
  if (node.type === 'Document') return findDuplicateKey(node.body, path);
  if (node.type === 'Object') {
    const seen = new Set<string>();
    for (const member of node.members) {
      const name = member.name.type === 'String' ? member.name.value : member.name.name;
      if (seen.has(name)) return [...path, name];
      seen.add(name);
      const inner = findDuplicateKey(member.value, [...path, name]);
      if (inner) return inner;
    }
  }
  if (node.type === 'Array') {
    for (const [i, el] of node.elements.entries()) {
      const inner = findDuplicateKey(el.value, [...path, String(i)]);
      if (inner) return inner;
    }
  }
  return null;
}

/** Deeper than any request of this API (the deepest, a topology, has three levels). */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether `text` nests arrays and objects more than `max` deep, by one scan that skips strings.
 * Checked before parsing: the duplicate-key walk recurses, and a 20,000-deep body (40 KB) once
 * overflowed the parser's stack and was answered "not valid JSON", which it is.
 */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Parses a request body as JSON, refusing what JSON.parse lets through silently: a key given
 * twice in one object (`{"dryRun":true,"dryRun":false}` must not mean whatever the last one
 * says while a proxy or log reads the first), and nesting deeper than `MAX_JSON_DEPTH`.
 * @throws DomainError invalid_request naming the problem.
 */
export function parseRequestJson(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw invalid(
      'body',
      `nests more than ${MAX_JSON_DEPTH} levels deep`,
      `The request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; no request of this API needs more.`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const reason = e instanceof SyntaxError ? e.message : 'it could not be parsed';
    throw invalid('body', 'is not valid JSON', `The request body is not valid JSON: ${reason}.`);
  }
  if (value !== null && typeof value === 'object') {
    let ast: AnyNode;
    try {
      ast = parseJsonAst(text, { mode: 'json' });
    } catch {
      throw invalid('body', 'is not valid JSON', 'The request body is not valid JSON.');
    }
    const duplicate = findDuplicateKey(ast, ['body']);
    if (duplicate)
      throw invalid(
        duplicate.join('.'),
        'is given more than once',
        `The request body gives "${duplicate.slice(1).join('.')}" more than once; send each field once.`,
      );
  }
  return value;
}

/** JSON with object keys sorted, so equal bodies have equal fingerprints whatever their layout. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
