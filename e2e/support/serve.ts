/**
 * Playwright's web server: a throwaway embedded PostgreSQL (fresh dir under the system temp
 * folder), migrations, the demo seed, then the production build via `next start`.
 * Writes the database URL and demo keys to the state file the tests read.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createDb } from '../../db/client';
import { makeTempDataDir, startEmbeddedPostgres } from '../../db/embedded';
import { migrateDatabase } from '../../db/migrate';
import { seedDemoFleet } from '../../server/demo';
import { E2E_PORT, stateFile } from './state';
import { appServerEnv } from '../../server/auth/password-checks';

const pg = await startEmbeddedPostgres({ dir: makeTempDataDir('gpu-e2e-pg'), persistent: false, fast: true });
await migrateDatabase(pg.url);
const { db, client } = createDb(pg.url, { max: 2 });
const keys = await seedDemoFleet(db, new Date());
await client.end();
const baseURL = `http://127.0.0.1:${E2E_PORT}`;
fs.writeFileSync(stateFile(), JSON.stringify({ databaseUrl: pg.url, keys, baseURL }));

const next = spawn('node_modules/.bin/next', ['start', '-p', String(E2E_PORT), '-H', '127.0.0.1'], {
  stdio: 'inherit',
  env: appServerEnv({
    ...process.env,
    DATABASE_URL: pg.url,
    AUTH_SECRET: process.env.AUTH_SECRET ?? randomBytes(32).toString('hex'),
    AUTH_TRUST_HOST: 'true',
    // The webhook tests' receiver listens on loopback, in the test process (docs/product.md §5.7).
    WEBHOOKS_ALLOW_LOOPBACK: '1',
  }),
});
let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  next.kill('SIGTERM');
  await pg.stop().catch(() => {});
  fs.rmSync(stateFile(), { force: true });
  process.exit(code);
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
next.on('exit', (code) => void stop(code ?? 1));
