/** `npm run db:seed`: resets the dev database (or DATABASE_URL's) to the demo fleet. */
import { createDb } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { resetDatabase } from '../db/seed';
import { seedDemoFleet } from '../server/demo';
import { ensureDevDatabase, writeDemoKeys } from './dev-db';

const pg = await ensureDevDatabase();
await migrateDatabase(pg.url);
const { db, client } = createDb(pg.url, { max: 2 });
await resetDatabase(db);
writeDemoKeys(await seedDemoFleet(db, new Date()));
await client.end();
await pg.stop();
