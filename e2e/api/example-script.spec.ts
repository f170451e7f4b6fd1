import { expect, test } from '../support/api';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readState } from '../support/state';

// scripts/example.ts walks the whole lifecycle through the public REST API only; it must run
// clean against a running server with the demo keys (issue: "run by a test").
test('the example script runs clean against the server', async () => {
  test.setTimeout(120_000);
  const state = readState();
  const keysFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-example-')), 'demo-keys.json');
  fs.writeFileSync(keysFile, JSON.stringify(state.keys));
  try {
    const { stdout } = await promisify(execFile)('node_modules/.bin/tsx', ['scripts/example.ts', state.baseURL], {
      env: { ...process.env, DEMO_KEYS_FILE: keysFile },
    });
    for (const step of [
      'registers a node',
      'reserves',
      'releases',
      'spot VMs',
      'the plan with the fewest evictions',
      'previews a reclaim',
      'confirming the old preview is refused',
      'the reclaim goes through',
      'needs review',
      're-affirms',
      'cancels',
      'Done.',
    ]) {
      expect(stdout).toContain(step);
    }
    expect(stdout).toMatch(/answer\s+409 eviction_set_changed/);
    expect(stdout).toMatch(/first reaffirm\s+409 unit_missing gpu-5/);
    expect(stdout).toMatch(/status\s+cancelled/);
  } finally {
    fs.rmSync(path.dirname(keysFile), { recursive: true, force: true });
  }
});
