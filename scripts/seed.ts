/**
 * `npm run db:seed`: resets the dev database (or DATABASE_URL's) to the demo fleet. Audit events
 * are append-only (no table is emptied), so the reset drops and recreates the database, then
 * migrates and seeds it.
 */
import { createDb } from '../db/client';
import { resetToMigrated } from '../db/recreate';
import { seedDemoFleet } from '../server/demo';
import { ensureDevDatabase, writeDemoKeys } from './dev-db';

const pg = await ensureDevDatabase();
try {
  await resetToMigrated(pg.url);
  const { db, client } = createDb(pg.url, { max: 2 });
  writeDemoKeys(await seedDemoFleet(db, new Date()));
  await client.end();
} finally {
  await pg.stop();
}
