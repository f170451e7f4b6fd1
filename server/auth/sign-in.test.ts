/**
 * Failed sign-ins throttled per account and per client address, in PostgreSQL (docs/product.md
 * §9.3): signInWithPassword, the check behind the console's sign-in (server/auth/config.ts).
 */
import { createDb, type Db } from '@/db/client';
import { insertOrg, insertUser } from '@/db/factories';
import { auditEvents, signInThrottles } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAuditEvents } from '../audit/list';
import { ctxFor, ORG } from '../testing/scene';
import { hashPassword } from './password';
import { signInWithPassword } from './sign-in';
import { signInThrottleSettings } from './sign-in-throttle';

const PASSWORD = 'correct horse';
// A stored hash whose scrypt cost exceeds the memory cap, so checking a password against it
// throws: an attempt that returns instead of throwing provably did not check the password.
const UNCHECKABLE_HASH = 'scrypt$1048576$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

let tdb: TestDatabase;
const db = () => tdb.db;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await insertOrg(db(), { id: ORG.platform, name: 'Platform' });
  await insertOrg(db(), { id: 'org_a', name: 'A' });
  const passwordHash = await hashPassword(PASSWORD);
  for (const name of ['ann', 'bob', 'cat', 'dan', 'eve']) await insertUser(db(), { id: `u_${name}`, email: `${name}@x.example`, name, passwordHash, orgIds: ['org_a'] });
});
afterAll(async () => tdb.close());

const ENV = ['SIGN_IN_MAX_FAILURES_PER_ACCOUNT', 'SIGN_IN_MAX_FAILURES_PER_ADDRESS', 'SIGN_IN_WINDOW_MINUTES', 'SIGN_IN_LOCKOUT_MINUTES'] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
beforeEach(async () => {
  // Small limits keep the scrypt checks few; every test starts with no counts.
  process.env.SIGN_IN_MAX_FAILURES_PER_ACCOUNT = '3';
  process.env.SIGN_IN_MAX_FAILURES_PER_ADDRESS = '5';
  delete process.env.SIGN_IN_WINDOW_MINUTES;
  delete process.env.SIGN_IN_LOCKOUT_MINUTES;
  await db().delete(signInThrottles);
});
afterEach(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

const attempt = (email: string, password: string, address: string | null = null, on: Db = db()) => signInWithPassword({ db: on, input: { email, password, address } });
const lockouts = () => db().select().from(auditEvents).where(eq(auditEvents.action, 'sign_in.lockout')).orderBy(auditEvents.seq);

describe('settings', () => {
  it('defaults (10 per account, 50 per address, 15-minute window and lockout) and env overrides; nonsense falls back', () => {
    expect(signInThrottleSettings({})).toEqual({ accountLimit: 10, addressLimit: 50, windowMinutes: 15, lockoutMinutes: 15 });
    expect(signInThrottleSettings({ SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '0', SIGN_IN_MAX_FAILURES_PER_ADDRESS: '7', SIGN_IN_WINDOW_MINUTES: '5', SIGN_IN_LOCKOUT_MINUTES: '60' })).toEqual({ accountLimit: 0, addressLimit: 7, windowMinutes: 5, lockoutMinutes: 60 });
    expect(signInThrottleSettings({ SIGN_IN_MAX_FAILURES_PER_ACCOUNT: 'x', SIGN_IN_MAX_FAILURES_PER_ADDRESS: '-1', SIGN_IN_WINDOW_MINUTES: '0', SIGN_IN_LOCKOUT_MINUTES: '1.5' })).toEqual({ accountLimit: 10, addressLimit: 50, windowMinutes: 15, lockoutMinutes: 15 });
  });
});

describe('per account', () => {
  it('the limit-th failure locks the account out with one sign_in.lockout event; then even the right password is refused unchecked', async () => {
    for (let i = 0; i < 3; i++) expect(await attempt('ann@x.example', 'wrong')).toEqual({ outcome: 'invalid' });
    expect(await attempt('ann@x.example', PASSWORD)).toEqual({ outcome: 'locked_out', retryAfterMinutes: 15 });

    const events = await lockouts();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorOrgId: ORG.platform, actorJob: 'sign-in-throttle', actorUserId: null, via: 'console', nodeId: null, unitIds: [] });
    expect(events[0]!.details).toMatchObject({ scope: 'account', email: 'ann@x.example', userId: 'u_ann', failures: 3, windowMinutes: 15 });
    // Refused attempts neither count nor write more events.
    await attempt('ann@x.example', 'wrong');
    expect(await lockouts()).toHaveLength(1);

    // Proof that a refused attempt checks no password: against this hash a check would throw.
    await db().execute(sql`update users set password_hash = ${UNCHECKABLE_HASH} where id = 'u_ann'`);
    try {
      expect(await attempt('ann@x.example', PASSWORD)).toMatchObject({ outcome: 'locked_out' });
      await db().delete(signInThrottles);
      await expect(attempt('ann@x.example', PASSWORD)).rejects.toThrow();
    } finally {
      await db().execute(sql`update users set password_hash = (select password_hash from users where id = 'u_bob') where id = 'u_ann'`);
    }
  });

  it('the operator sees the event (org-level, platform actor); the account’s own org does not', async () => {
    for (let i = 0; i < 3; i++) await attempt('bob@x.example', 'wrong');
    const operator = await listAuditEvents({ ctx: ctxFor(db(), ORG.platform, new Date()), input: { action: 'sign_in.lockout' } });
    expect(operator.items.map((e) => [e.action, e.actorOrgId, e.details.email])).toContainEqual(['sign_in.lockout', ORG.platform, 'bob@x.example']);
    const own = await listAuditEvents({ ctx: ctxFor(db(), 'org_a', new Date()), input: { action: 'sign_in.lockout' } });
    expect(own.items).toEqual([]);
  });

  it('the lockout lasts SIGN_IN_LOCKOUT_MINUTES; then the account may try again, with a fresh count', async () => {
    process.env.SIGN_IN_LOCKOUT_MINUTES = '2';
    for (let i = 0; i < 3; i++) await attempt('cat@x.example', 'wrong');
    expect(await attempt('cat@x.example', PASSWORD)).toEqual({ outcome: 'locked_out', retryAfterMinutes: 2 });
    // Time passes (PostgreSQL's clock decides): the lockout and the window are over.
    await db().execute(sql`update sign_in_throttles set locked_until = now() - interval '1 second', window_started_at = now() - interval '16 minutes'`);
    expect(await attempt('cat@x.example', PASSWORD)).toMatchObject({ outcome: 'signed_in', user: { id: 'u_cat' } });
  });

  it('a lockout shorter than the window ends with a fresh count, not a refusal until the window ends', async () => {
    process.env.SIGN_IN_LOCKOUT_MINUTES = '1';
    for (let i = 0; i < 3; i++) await attempt('dan@x.example', 'wrong');
    expect(await attempt('dan@x.example', PASSWORD)).toEqual({ outcome: 'locked_out', retryAfterMinutes: 1 });
    // Only the lockout is over; the 15-minute window of those failures is not.
    await db().execute(sql`update sign_in_throttles set locked_until = now() - interval '1 second'`);
    expect(await attempt('dan@x.example', 'wrong')).toEqual({ outcome: 'invalid' });
    expect(await attempt('dan@x.example', PASSWORD)).toMatchObject({ outcome: 'signed_in', user: { id: 'u_dan' } });
  });

  it('failures older than the window are forgotten; a success forgets the account’s failures', async () => {
    await attempt('dan@x.example', 'wrong');
    await attempt('dan@x.example', 'wrong');
    await db().execute(sql`update sign_in_throttles set window_started_at = now() - interval '15 minutes 1 second'`);
    await attempt('dan@x.example', 'wrong');
    await attempt('dan@x.example', 'wrong');
    expect(await attempt('dan@x.example', PASSWORD)).toMatchObject({ outcome: 'signed_in' });
    for (let i = 0; i < 2; i++) expect(await attempt('dan@x.example', 'wrong')).toEqual({ outcome: 'invalid' });
    expect((await lockouts()).filter((e) => e.details.email === 'dan@x.example')).toHaveLength(1); // the test above's
  });

  it('an unknown email counts and locks out exactly like an account (nothing tells them apart)', async () => {
    for (let i = 0; i < 3; i++) expect(await attempt('nobody@x.example', 'wrong')).toEqual({ outcome: 'invalid' });
    expect(await attempt('nobody@x.example', 'wrong')).toEqual({ outcome: 'locked_out', retryAfterMinutes: 15 });
    const last = (await lockouts()).at(-1)!;
    expect(last.details).toEqual({ scope: 'account', email: 'nobody@x.example', failures: 3, windowMinutes: 15, lockedUntil: expect.any(String) });
  });

  it('parallel guesses, on two pools (two app instances), get no more password checks than the limit, and one event', async () => {
    const second = createDb(tdb.url, { max: 4 });
    try {
      const before = (await lockouts()).length;
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => attempt('eve@x.example', 'wrong', null, i % 2 ? second.db : db())));
      expect(outcomes.filter((o) => o.outcome === 'invalid')).toHaveLength(3);
      expect(outcomes.filter((o) => o.outcome === 'locked_out')).toHaveLength(5);
      expect(await lockouts()).toHaveLength(before + 1);
    } finally {
      await second.client.end();
    }
  });

  it('SIGN_IN_MAX_FAILURES_PER_ACCOUNT=0 turns the per-account limit off', async () => {
    process.env.SIGN_IN_MAX_FAILURES_PER_ACCOUNT = '0';
    for (let i = 0; i < 4; i++) expect(await attempt('nobody2@x.example', 'wrong')).toEqual({ outcome: 'invalid' });
    expect(await db().select().from(signInThrottles)).toEqual([]);
  });
});

describe('per client address', () => {
  it('failures for any accounts from one address lock the address; other addresses and no address still get through', async () => {
    process.env.SIGN_IN_MAX_FAILURES_PER_ACCOUNT = '0';
    const before = (await lockouts()).length;
    for (const who of ['p1', 'p2', 'p3', 'p4', 'p5']) expect(await attempt(`${who}@x.example`, 'wrong', '203.0.113.7')).toEqual({ outcome: 'invalid' });
    expect(await attempt('ann@x.example', PASSWORD, '203.0.113.7')).toEqual({ outcome: 'locked_out', retryAfterMinutes: 15 });
    expect(await attempt('ann@x.example', PASSWORD, '203.0.113.8')).toMatchObject({ outcome: 'signed_in' });
    expect(await attempt('ann@x.example', PASSWORD, null)).toMatchObject({ outcome: 'signed_in' });
    const events = await lockouts();
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)!.details).toMatchObject({ scope: 'address', address: '203.0.113.7', failures: 5 });
  });

  it('a successful sign-in does not reset the address’s count of other accounts’ failures', async () => {
    const ip = '2001:db8::1';
    await attempt('p1@x.example', 'wrong', ip);
    await attempt('p2@x.example', 'wrong', ip);
    await attempt('p3@x.example', 'wrong', ip);
    // Successes in between take back only their own attempt.
    expect(await attempt('bob@x.example', PASSWORD, ip)).toMatchObject({ outcome: 'signed_in' });
    expect(await attempt('cat@x.example', PASSWORD, ip)).toMatchObject({ outcome: 'signed_in' });
    await attempt('p4@x.example', 'wrong', ip);
    await attempt('p5@x.example', 'wrong', ip);
    expect(await attempt('dan@x.example', PASSWORD, ip)).toEqual({ outcome: 'locked_out', retryAfterMinutes: 15 });
  });

  it('an account locks out whichever address it is tried from', async () => {
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) await attempt('cat@x.example', 'wrong', ip);
    expect(await attempt('cat@x.example', PASSWORD, '198.51.100.4')).toMatchObject({ outcome: 'locked_out' });
  });
});
