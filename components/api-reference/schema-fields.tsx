import type { ReactNode } from 'react';
import { DocText } from './doc-text';

/** A JSON object of the OpenAPI document. */
export type Json = Record<string, unknown>;

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The component a `$ref` names, e.g. `ReclaimResponse`. */
export const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/**
 * Follows a `$ref` into the document's components (docs/product.md §5 "The reference").
 * @returns the referenced object (or the value itself), and the component's name when it was one.
 */
export function resolveRef(doc: Json, value: unknown): { node: Json; name?: string } {
  if (!isJson(value) || typeof value.$ref !== 'string') return { node: isJson(value) ? value : {} };
  const [, , section, name] = value.$ref.split('/');
  const components = isJson(doc.components) ? doc.components : {};
  const table = isJson(components[section!]) ? (components[section!] as Json) : {};
  return { node: isJson(table[name!]) ? (table[name!] as Json) : {}, name: name! };
}

/** `string`, `array of string`, `'a' | 'b'`, `"true"` — the type as a client writes it. */
function typeLabel(doc: Json, s: Json): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.type === 'array') {
    const items = resolveRef(doc, s.items);
    return `array of ${items.name ?? typeLabel(doc, items.node)}`;
  }
  if (Array.isArray(s.type)) return s.type.join(' | ');
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return 'one of the variants below';
  return 'any';
}

/** Every limit the schema states, in words a client reads (length in code points, as the introduction says). */
export function limitsOf(s: Json): string[] {
  const out: string[] = [];
  const pair = (min: unknown, max: unknown, unit: string) => {
    if (typeof min === 'number' && typeof max === 'number') out.push(`${min}–${max} ${unit}`);
    else if (typeof min === 'number') out.push(`at least ${min} ${unit}`);
    else if (typeof max === 'number') out.push(`at most ${max} ${unit}`);
  };
  pair(s.minLength, s.maxLength, 'characters');
  pair(s.minItems, s.maxItems, 'items');
  if (typeof s.minimum === 'number' || typeof s.maximum === 'number') {
    out.push(
      typeof s.minimum === 'number' && typeof s.maximum === 'number'
        ? `${s.minimum} ≤ value ≤ ${s.maximum}`
        : typeof s.minimum === 'number'
          ? `≥ ${s.minimum}`
          : `≤ ${String(s.maximum)}`,
    );
  }
  if (s.uniqueItems === true) out.push('distinct items');
  if (typeof s.format === 'string') out.push(`format ${s.format}`);
  if (typeof s.pattern === 'string') out.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  if (s['x-extension'] === true) out.push('extension of this API');
  return out;
}

/** The limits of an array's items too (`each: pattern …`), since an id list's pattern is its items'. */
function allLimits(doc: Json, s: Json): string[] {
  const own = limitsOf(s);
  if (s.type !== 'array') return own;
  const items = resolveRef(doc, s.items);
  const inner = items.name ? [] : limitsOf(items.node);
  return inner.length > 0 ? [...own, `each: ${inner.join(', ')}`] : own;
}

/**
 * The fields of an object schema as a definition list: name, type, whether required, limits and
 * description, nested objects indented (docs/product.md §5 "The reference"). A named component
 * links to its entry under Schemas; variants (`anyOf`/`oneOf`) are listed one by one.
 * @param depth how far nested objects are still expanded in place.
 */
export function SchemaFields({ doc, schema, depth = 2 }: { doc: Json; schema: unknown; depth?: number }): ReactNode {
  const { node: s, name } = resolveRef(doc, schema);
  const variants = [...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])];
  const head = name ? (
    <p className="text-sm text-ink-3">
      Schema{' '}
      <a href={`#schema-${name}`} className="text-accent-ink underline">
        {name}
      </a>
    </p>
  ) : null;
  if (variants.length > 0) {
    return (
      <div className="space-y-2">
        {head}
        <p className="text-sm">One of:</p>
        <ul className="space-y-3 border-l border-line pl-3">
          {variants.map((v, i) => (
            <li key={i}>{depth > 0 ? <SchemaFields doc={doc} schema={v} depth={depth - 1} /> : <VariantName doc={doc} schema={v} />}</li>
          ))}
        </ul>
      </div>
    );
  }
  const target = s.type === 'array' ? resolveRef(doc, s.items) : { node: s };
  const properties = isJson(target.node.properties) ? target.node.properties : {};
  const required = new Set(Array.isArray(target.node.required) ? (target.node.required as string[]) : []);
  const entries = Object.entries(properties);
  if (entries.length === 0) {
    return (
      <div>
        {head}
        <p className="text-sm">
          <code>{typeLabel(doc, s)}</code> {limitsOf(s).join(', ')} {typeof s.description === 'string' && <DocText text={s.description} />}
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-1">
      {head}
      {s.type === 'array' && <p className="text-sm">An array; each item:</p>}
      <dl className="divide-y divide-line text-sm">
        {entries.map(([field, raw]) => {
          const child = resolveRef(doc, raw);
          if (isJson(child.node.not) && Object.keys(child.node.not).length === 0) {
            return (
              <div key={field} className="py-1.5">
                <dt>
                  <code className="font-semibold">{field}</code> <span className="text-ink-3">never present in this variant</span>
                </dt>
              </div>
            );
          }
          const nested = child.node.type === 'object' || (child.node.type === 'array' && isJson(resolveRef(doc, child.node.items).node.properties));
          return (
            <div key={field} className="py-1.5">
              <dt className="flex flex-wrap items-baseline gap-x-2">
                <code className="font-semibold">{field}</code>
                <span className="font-mono text-xs text-ink-3">{child.name ?? typeLabel(doc, child.node)}</span>
                {required.has(field) ? (
                  <span className="text-xs font-semibold text-accent-ink">required</span>
                ) : (
                  <span className="text-xs text-ink-3">optional</span>
                )}
              </dt>
              <dd className="space-y-1">
                {allLimits(doc, child.node).length > 0 && (
                  <p className="font-mono text-xs wrap-anywhere text-ink-3">{allLimits(doc, child.node).join(' · ')}</p>
                )}
                {typeof child.node.description === 'string' && (
                  <p>
                    <DocText text={child.node.description} />
                  </p>
                )}
                {nested && depth > 0 && !child.name && (
                  <div className="border-l border-line pl-3">
                    <SchemaFields doc={doc} schema={child.node} depth={depth - 1} />
                  </div>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

function VariantName({ doc, schema }: { doc: Json; schema: unknown }) {
  const { name, node } = resolveRef(doc, schema);
  return name ? (
    <a href={`#schema-${name}`} className="text-accent-ink underline">
      {name}
    </a>
  ) : (
    <code>{typeLabel(doc, node)}</code>
  );
}
