/**
 * The structure of the OpenAPI document — every path and operation, every type, `required`
 * list, enum and reference — without the prose (descriptions, summaries, titles). The test in
 * document.test.ts compares it with contract.snapshot.json, so a refactor may reword the
 * document but never change the contract a client was generated from.
 *
 * `npx tsx server/openapi/contract.ts --write` rewrites the snapshot (after adding a route).
 */
import type { oas31 } from 'zod-openapi';

const prose = new Set(['description', 'summary', 'title', 'examples', 'example']);

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (!prose.has(k)) out[k] = strip(v);
    }
    // `required` lists compare as sets.
    if (Array.isArray(out.required) && out.required.every((x) => typeof x === 'string')) out.required = [...(out.required as string[])].sort();
    return out;
  }
  return value;
}

export type ContractProjection = { operations: Record<string, unknown>; schemas: Record<string, unknown> };

/** An object with its keys in code-point order, so that the snapshot's diff shows what changed, never where. */
const sortedKeys = <T>(o: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The document's structure, keyed by `METHOD path` and by component schema name, each in code-point order. */
export function projectContract(doc: oas31.OpenAPIObject): ContractProjection {
  const operations: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) operations[`${method.toUpperCase()} ${path}`] = strip(op);
  }
  const schemas: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) schemas[name] = strip(schema);
  for (const [name, part] of Object.entries(doc.components?.parameters ?? {})) schemas[`parameters/${name}`] = strip(part);
  for (const [name, part] of Object.entries(doc.components?.responses ?? {})) schemas[`responses/${name}`] = strip(part);
  return { operations: sortedKeys(operations), schemas: sortedKeys(schemas) };
}

if (process.argv.includes('--write')) {
  const { writeFileSync } = await import('node:fs');
  const { buildOpenApiDocument } = await import('./document');
  const { restRoutes } = await import('../rest/routes');
  writeFileSync(new URL('./contract.snapshot.json', import.meta.url), JSON.stringify(projectContract(buildOpenApiDocument(restRoutes)), null, 1) + '\n');
}
