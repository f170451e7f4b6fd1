/** The CPU guard's settings, and the thread pool every app server starts with (docs/product.md §9.3). */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { appServerEnv, passwordCheckBound, threadPoolSizeFor } from './password-checks';

describe('bounded password checks', () => {
  it('max(1, cores − 1) checks at once unless PASSWORD_CHECKS_AT_ONCE says otherwise; nonsense falls back', () => {
    const cores = os.availableParallelism();
    expect(passwordCheckBound({})).toBe(Math.max(1, cores - 1));
    expect(passwordCheckBound({ PASSWORD_CHECKS_AT_ONCE: '3' })).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'x', '100000']) expect(passwordCheckBound({ PASSWORD_CHECKS_AT_ONCE: bad })).toBe(Math.max(1, cores - 1));
  });

  it('servers start with UV_THREADPOOL_SIZE ≥ the bound + 4, keeping a larger one', () => {
    expect(appServerEnv({ PASSWORD_CHECKS_AT_ONCE: '2' }).UV_THREADPOOL_SIZE).toBe(String(threadPoolSizeFor(2)));
    expect(threadPoolSizeFor(2)).toBe(6);
    expect(appServerEnv({ PASSWORD_CHECKS_AT_ONCE: '2', UV_THREADPOOL_SIZE: '3' }).UV_THREADPOOL_SIZE).toBe('6');
    expect(appServerEnv({ PASSWORD_CHECKS_AT_ONCE: '2', UV_THREADPOOL_SIZE: '32' }).UV_THREADPOOL_SIZE).toBe('32');
  });

  it('every script that starts an app server (next start / next dev) passes its environment through appServerEnv', () => {
    const files = execFileSync('git', ['ls-files', '*.ts'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => /^(scripts|e2e|db|server)\//.test(f) && !f.endsWith('.test.ts'));
    const starters = files.filter((f) => /spawn\([^)]*next(_bin)?['"]?\)?,\s*\[(['"]start['"]|mode)/i.test(fs.readFileSync(f, 'utf8').replace(/\s+/g, ' ')));
    expect(starters.length).toBeGreaterThanOrEqual(4);
    for (const f of starters) expect(fs.readFileSync(f, 'utf8'), f).toContain('appServerEnv(');
  });
});
