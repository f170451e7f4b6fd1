import fs from 'node:fs';
import { expect, test } from 'vitest';
import { generateSdkSources } from '../scripts/generate';

// The SDK's types are the served document's (docs/product.md §5, "SDK and CLI"): regenerated in
// memory, they must equal the committed files, else `npx tsx clients/typescript/scripts/generate.ts`.
test('the generated SDK sources are those of the current document', async () => {
  for (const [name, text] of Object.entries(await generateSdkSources())) {
    const committed = fs.readFileSync(new URL(`./generated/${name}`, import.meta.url), 'utf8');
    expect(committed, `clients/typescript/src/generated/${name} is stale: run npx tsx clients/typescript/scripts/generate.ts`).toBe(text);
  }
}, 60_000);
