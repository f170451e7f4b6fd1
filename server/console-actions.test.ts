/**
 * Every console action id (server/console-actions.ts) is offered somewhere and named by an
 * operation (docs/architecture.md "Add an operation"): a test fails for an id that no page or
 * component registers with `offers(id)` (components/offers.ts), for an id no declaration names,
 * and for a registration of an id that does not exist.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleActionIds } from './console-actions';
import { operations } from './operations';

const root = path.resolve(import.meta.dirname, '..');

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sourcesUnder(rel));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(rel);
  }
  return out;
}

/** The ids registered with `offers('…')`, by file. */
function registrations(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of [...sourcesUnder('app'), ...sourcesUnder('components')]) {
    for (const m of readFileSync(path.join(root, file), 'utf8').matchAll(/\boffers\(\s*'([^']+)'\s*\)/g)) {
      found.set(m[1]!, [...(found.get(m[1]!) ?? []), file]);
    }
  }
  return found;
}

describe('console actions', () => {
  it('registers every id in a page or component, and no id that does not exist', () => {
    const registered = registrations();
    expect(
      consoleActionIds.filter((id) => !registered.has(id)),
      'ids no page or component registers with offers(id)',
    ).toEqual([]);
    expect(
      [...registered.keys()].filter((id) => !(consoleActionIds as readonly string[]).includes(id)),
      'registrations of unknown ids',
    ).toEqual([]);
  });

  it('names every id in some operation, and gives every API-only operation a reason', () => {
    const named = new Set(operations.flatMap((o) => (typeof o.console === 'string' ? [o.console] : [])));
    expect(
      consoleActionIds.filter((id) => !named.has(id)),
      'ids no operation declares',
    ).toEqual([]);
    const unexplained = operations.filter((o) => typeof o.console !== 'string' && o.console.apiOnly.trim().length < 12).map((o) => o.id);
    expect(unexplained, 'API-only operations without a reason').toEqual([]);
  });

  it('gives every operation REST does not publish a reason', () => {
    const unexplained = operations.filter((o) => 'none' in o.rest && o.rest.none.trim().length < 12).map((o) => o.id);
    expect(unexplained).toEqual([]);
  });
});
