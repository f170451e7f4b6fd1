/**
 * No import circle in server/ (issue 19; docs/architecture.md "Layers"): a circle means two
 * modules that can only be understood, loaded and tested together, and a deferred one (an
 * `import()` back into a module that imports you) hides it from the bundler until run time.
 * Every edge counts — static imports and re-exports, `import type` (a type circle is the same
 * tangle one refactor away from a runtime one) and dynamic `import()` — between files of
 * server/. ESLint's `import/no-cycle` is not installed; this walks the sources with the
 * TypeScript parser instead.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** Every .ts/.tsx file under `dir`, as a path relative to the repository root. */
function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sourcesUnder(rel));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The module specifiers a file imports, re-exports or `import()`s, with string literals. */
function importSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file of ours a specifier names (relative, or `@/` from the root), or null for a package. */
function resolve(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = specifier.slice(2);
  else if (specifier.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (files.has(candidate)) return candidate;
  return null;
}

/**
 * The import circles among `graph`'s files: each strongly connected component of more than one
 * file (or a file importing itself), reported as one cycle through it, e.g. `a → b → a`.
 */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iteration order fixed so the report is stable.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  // One concrete cycle per component: a shortest path back to its first file.
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    const previous = new Map<string, string>();
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const v = queue[i]!;
      for (const w of graph.get(v) ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          const cycle = [start];
          for (let at: string | undefined = v; at && at !== start; at = previous.get(at)) cycle.splice(1, 0, at);
          return [...cycle, start];
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    return [start, start];
  });
}

/** The import graph of server/: each file and the files of server/ it imports. */
function serverGraph(): Map<string, string[]> {
  const files = sourcesUnder('server');
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importSpecifiers(file, readFileSync(path.join(root, file), 'utf8'))
      .map((s) => resolve(file, s, known))
      .filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

describe('import circles in server/', () => {
  it('there are none', () => {
    const graph = serverGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(findCycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('the walk sees every kind of edge, and the search finds a circle through them', () => {
    const text = `import a from './a'; import type { B } from '../b'; export * from '@/server/c'; const d = () => import('./d'); type E = import('./e').E;`;
    expect(importSpecifiers('server/x/y.ts', text)).toEqual(['./a', '../b', '@/server/c', './d', './e']);
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(findCycles(graph)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['e', 'e'],
    ]);
  });
});
