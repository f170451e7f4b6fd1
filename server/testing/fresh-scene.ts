import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { afterAll, beforeEach } from 'vitest';
import { buildScene, T0 } from './scene';

/**
 * Gives every test of the file its own database holding the scene (server/testing/scene.ts),
 * built around `at` (REST tests pass the real clock: transports read PostgreSQL's).
 * @returns a getter for the current test's database.
 */
export function useFreshScene(at: () => Date = () => T0): () => TestDatabase {
  let tdb: TestDatabase | undefined;
  beforeEach(async () => {
    await tdb?.close();
    tdb = await createTestDatabase();
    await buildScene(tdb.db, at());
  });
  afterAll(async () => tdb?.close());
  return () => {
    if (!tdb) throw new Error('useFreshScene: no database outside a test');
    return tdb;
  };
}
