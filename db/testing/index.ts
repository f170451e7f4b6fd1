import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { createDb, type Db } from '../client';
import { withDatabase } from './global-setup';

export type TestDatabase = { db: Db; url: string; close: () => Promise<void> };

/**
 * A new database cloned from the migrated template, private to the caller; also points
 * DATABASE_URL at it so route handlers under test use it.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const provided = inject('pgAdminUrl');
  const [adminUrl, hash] = provided.split('#');
  const template = new URLSearchParams(hash).get('template')!;
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const url = withDatabase(adminUrl!, name);
  process.env.DATABASE_URL = url;
  const { db, client } = createDb(url);
  return {
    db,
    url,
    close: async () => {
      await client.end();
      const a = postgres(adminUrl!, { max: 1, onnotice: () => {} });
      await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
