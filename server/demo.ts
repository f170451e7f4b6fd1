import type { Db } from '@/db/client';
import { DEMO_PASSWORD, seedDemo } from '@/db/seed';
import { issueApiKey } from './api-keys/internal';
import { hashPassword } from './auth/password';

/**
 * Seeds the demo fleet (db/seed.ts) with real credentials: demo users' passwords hashed as
 * sign-in checks them, and one dev API key per demo org issued as every key is (random,
 * stored hashed). The seed itself stays in db/, which imports nothing from server/.
 * @returns the dev API key of every demo org, `{ orgId: secret }`.
 */
export async function seedDemoFleet(db: Db, now: Date): Promise<Record<string, string>> {
  return seedDemo(db, now, { passwordHash: await hashPassword(DEMO_PASSWORD), issueApiKey });
}
