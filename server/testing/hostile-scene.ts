import type { Db } from '@/db/client';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { afterAll, beforeAll } from 'vitest';
import { snapshotTables } from './hostile';
import { ORG, buildScene } from './scene';

export type HostileScene = { db: () => Db; before: () => Record<string, string> };

/**
 * The hostile corpus's database, for both transports: the scene on a private test database,
 * the per-minute limiters off, per key and per org (thousands of requests per key and user: the corpus tests input
 * handling, not the limiter), and the snapshot every route's corpus must leave as it was —
 * taken after `prepare` (keys issued, say). Registers its own beforeAll and afterAll.
 */
export function useHostileScene(prepare: (db: Db) => Promise<void> = async () => {}): HostileScene {
  let tdb: TestDatabase | undefined;
  let before: Record<string, string> = {};
  let savedRateLimit: string | undefined;
  let savedOrgRateLimit: string | undefined;
  beforeAll(async () => {
    process.env.PLATFORM_ORG_ID = ORG.platform;
    savedRateLimit = process.env.RATE_LIMIT_PER_MINUTE;
    savedOrgRateLimit = process.env.RATE_LIMIT_PER_ORG_PER_MINUTE;
    process.env.RATE_LIMIT_PER_MINUTE = '0';
    process.env.RATE_LIMIT_PER_ORG_PER_MINUTE = '0';
    tdb = await createTestDatabase();
    await buildScene(tdb.db, new Date());
    await prepare(tdb.db);
    before = await snapshotTables(tdb.db);
  });
  afterAll(async () => {
    if (savedRateLimit === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
    else process.env.RATE_LIMIT_PER_MINUTE = savedRateLimit;
    if (savedOrgRateLimit === undefined) delete process.env.RATE_LIMIT_PER_ORG_PER_MINUTE;
    else process.env.RATE_LIMIT_PER_ORG_PER_MINUTE = savedOrgRateLimit;
    await tdb?.close();
  });
  return { db: () => tdb!.db, before: () => before };
}
