/**
 * `npm run dev`: the embedded PostgreSQL (unless DATABASE_URL is set), migrations, the demo
 * seed on an empty database, then `next dev`.
 */
import { spawn } from 'node:child_process';
import { createDb } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { isEmpty } from '../db/seed';
import { seedDemoFleet } from '../server/demo';
import { devAuthSecret, ensureDevDatabase, writeDemoKeys } from './dev-db';
import { appServerEnv } from '../server/auth/password-checks';

const pg = await ensureDevDatabase();
try {
  // Migrations need a session of their own: past a transaction-mode pooler when one is in front.
  await migrateDatabase(process.env.DATABASE_DIRECT_URL || pg.url);
  const { db, client } = createDb(pg.url, { max: 2 });
  if (await isEmpty(db)) {
    console.log('Empty database: seeding the demo fleet…');
    writeDemoKeys(await seedDemoFleet(db, new Date()));
  }
  await client.end();
} catch (e) {
  await pg.stop();
  throw e;
}

const mode = process.argv[2] === 'start' ? 'start' : 'dev';
const port = process.env.PORT ?? '3000';
const next = spawn('node_modules/.bin/next', [mode, '-p', port], {
  stdio: 'inherit',
  env: appServerEnv({ ...process.env, DATABASE_URL: pg.url, AUTH_SECRET: devAuthSecret(), AUTH_TRUST_HOST: 'true' }),
});
let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  next.kill('SIGTERM');
  await pg.stop().catch(() => {});
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
next.on('exit', (code) => void stop(code ?? 0));
