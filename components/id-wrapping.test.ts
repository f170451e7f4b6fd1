import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Ids wrap only after a separator (issue 23, docs/product.md §6 "Any screen, any keyboard"):
 * through `Id` (components/unit-ids.tsx), never `break-all`, which splits "vm-orbit-tr" /
 * "ain-02". The one exception is a new API key's secret: random letters with no separator to
 * break at, shown once to be copied.
 */
// unit-ids.tsx names break-all only to say why it is not used.
const allowed = new Set(['ui/secret-dialog.tsx', 'unit-ids.tsx']);

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('ids in the console', () => {
  it('no component breaks text anywhere (break-all), but the one-time secret', () => {
    const root = import.meta.dirname;
    const offenders = files(root)
      .filter((f) => f.endsWith('.tsx') && !allowed.has(path.relative(root, f)))
      .filter((f) => /\bbreak-all\b|word-break:\s*break-all|wordBreak:\s*'break-all'/.test(fs.readFileSync(f, 'utf8')));
    expect(offenders.map((f) => path.relative(root, f))).toEqual([]);
  });
});
