import { createDb } from '@/db/client';
import { insertOrg, insertUser } from '@/db/factories';
import { sessions } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemberOf, resolveConsoleSession, revokeSession, revokeUserSessions, SESSION_MAX_AGE_SECONDS, startSession } from './sessions';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
  for (const id of ['org_a', 'org_b', 'org_c']) await insertOrg(tdb.db, { id, name: `Org ${id}` });
  await insertUser(tdb.db, { id: 'u_sam', email: 'sam@x.example', name: 'Sam', passwordHash: 'unused', orgIds: ['org_b', 'org_a'] });
  await insertUser(tdb.db, { id: 'u_kim', email: 'kim@x.example', name: 'Kim', passwordHash: 'unused', orgIds: ['org_c'] });
  await insertUser(tdb.db, { id: 'u_lone', email: 'lone@x.example', name: 'Lone', passwordHash: 'unused', orgIds: [] });
});
afterAll(async () => tdb.close());

const resolve = (userId: string, sessionId: string, remembered?: string) => resolveConsoleSession(tdb.db, { userId, sessionId }, remembered);

describe('console sessions', () => {
  it('a new session is live for SESSION_MAX_AGE_SECONDS and resolves the user, orgs and acting org', async () => {
    const sid = await startSession(tdb.db, 'u_sam');
    const [row] = await tdb.db.select().from(sessions).where(eq(sessions.id, sid));
    expect(row).toMatchObject({ userId: 'u_sam', revokedAt: null });
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(SESSION_MAX_AGE_SECONDS * 1000);

    const s = await resolve('u_sam', sid);
    expect(s).toMatchObject({
      sessionId: sid,
      user: { id: 'u_sam', email: 'sam@x.example', name: 'Sam' },
      // The role in the acting org comes with the session (docs/product.md §2 Roles): admin by default.
      principal: { orgId: 'org_a', actor: { kind: 'user', userId: 'u_sam' }, via: 'console', role: 'admin' },
    });
    expect(s!.orgs).toEqual([
      { id: 'org_a', name: 'Org org_a', role: 'admin' },
      { id: 'org_b', name: 'Org org_b', role: 'admin' },
    ]);
    // The remembered org when the user belongs to it, else the first by id.
    expect((await resolve('u_sam', sid, 'org_b'))!.principal.orgId).toBe('org_b');
    expect((await resolve('u_sam', sid, 'org_c'))!.principal.orgId).toBe('org_a');
  });

  it('a signed-out session no longer resolves; the user’s other sessions still do', async () => {
    const first = await startSession(tdb.db, 'u_sam');
    const second = await startSession(tdb.db, 'u_sam');
    await revokeSession(tdb.db, first);
    expect(await resolve('u_sam', first)).toBeNull();
    expect(await resolve('u_sam', second)).not.toBeNull();
    // Revoking again changes nothing (the revocation time stays the first one).
    const [before] = await tdb.db.select().from(sessions).where(eq(sessions.id, first));
    await revokeSession(tdb.db, first);
    const [after] = await tdb.db.select().from(sessions).where(eq(sessions.id, first));
    expect(after!.revokedAt).toEqual(before!.revokedAt);
  });

  it('signing out everywhere ends every session of that user and no one else’s', async () => {
    const mine = [await startSession(tdb.db, 'u_sam'), await startSession(tdb.db, 'u_sam')];
    const theirs = await startSession(tdb.db, 'u_kim');
    expect(await revokeUserSessions(tdb.db, 'u_sam')).toBeGreaterThanOrEqual(2);
    for (const sid of mine) expect(await resolve('u_sam', sid)).toBeNull();
    expect(await resolve('u_kim', theirs)).toMatchObject({ principal: { orgId: 'org_c' } });
    expect(await revokeUserSessions(tdb.db, 'u_sam')).toBe(0);
    // A new sign-in after that works again.
    expect(await resolve('u_sam', await startSession(tdb.db, 'u_sam'))).not.toBeNull();
  });

  it('an expired session does not resolve, and the next sign-in forgets it', async () => {
    const sid = await startSession(tdb.db, 'u_kim');
    await tdb.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.id, sid));
    expect(await resolve('u_kim', sid)).toBeNull();
    await startSession(tdb.db, 'u_kim');
    expect(await tdb.db.select().from(sessions).where(eq(sessions.id, sid))).toEqual([]);
  });

  it('a session id resolves only for its own user; unknown ids and users without orgs resolve to nothing', async () => {
    const sams = await startSession(tdb.db, 'u_sam');
    expect(await resolve('u_kim', sams)).toBeNull();
    expect(await resolve('u_sam', 'ses_unknown')).toBeNull();
    expect(await resolve('u_lone', await startSession(tdb.db, 'u_lone'))).toBeNull();
  });

  it('lives in PostgreSQL only: a second pool (another app instance) sees a revocation at once', async () => {
    const sid = await startSession(tdb.db, 'u_kim');
    const other = createDb(tdb.url, { max: 1 });
    try {
      expect(await resolveConsoleSession(other.db, { userId: 'u_kim', sessionId: sid }, undefined)).not.toBeNull();
      await revokeSession(tdb.db, sid);
      expect(await resolveConsoleSession(other.db, { userId: 'u_kim', sessionId: sid }, undefined)).toBeNull();
    } finally {
      await other.client.end();
    }
  });
});

describe('isMemberOf (the org switcher’s rule, docs/product.md §2)', () => {
  it('allows only the signed-in user’s own orgs', async () => {
    const s = (await resolve('u_sam', await startSession(tdb.db, 'u_sam')))!;
    expect(isMemberOf(s, 'org_a')).toBe(true);
    expect(isMemberOf(s, 'org_b')).toBe(true);
    expect(isMemberOf(s, 'org_c')).toBe(false);
    expect(isMemberOf(s, '')).toBe(false);
  });
});
