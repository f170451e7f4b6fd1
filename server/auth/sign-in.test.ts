/**
 * Failed sign-ins throttled per account and per client address, in PostgreSQL (docs/product.md
 * §9.3): signInWithPassword, the check behind the console's sign-in (server/auth/config.ts).
 */
import { createDb, type Db } from '@/db/client';
import { insertOrg, insertUser } from '@/db/factories';
import { auditEvents, notifications, signInThrottles } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/testing';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAuditEvents } from '../audit/list';
import { ctxFor, ORG } from '../testing/scene';
import { hashPassword } from './password';
import { signInWithPassword } from './sign-in';
import { PasswordCheckGate } from './password-checks';
import { signInThrottleSettings } from './sign-in-throttle';
import { revokeUserDevices } from './known-devices';
import { listLockedSignIns } from '../sign-ins/list-locked';
import { unlockSignIn } from '../sign-ins/unlock';
import { DomainError } from '../errors';

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
  for (const name of ['ann', 'bob', 'cat', 'dan', 'eve'])
    await insertUser(db(), { id: `u_${name}`, email: `${name}@x.example`, name, passwordHash, orgIds: ['org_a'] });
});
afterAll(async () => tdb.close());

const ENV = [
  'SIGN_IN_MAX_FAILURES_PER_ACCOUNT',
  'SIGN_IN_MAX_FAILURES_PER_ADDRESS',
  'SIGN_IN_MAX_FAILURES_PER_MINUTE',
  'SIGN_IN_WINDOW_MINUTES',
  'SIGN_IN_LOCKOUT_MINUTES',
] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
beforeEach(async () => {
  // Small limits keep the scrypt checks few; every test starts with no counts.
  process.env.SIGN_IN_MAX_FAILURES_PER_ACCOUNT = '3';
  process.env.SIGN_IN_MAX_FAILURES_PER_ADDRESS = '5';
  delete process.env.SIGN_IN_MAX_FAILURES_PER_MINUTE;
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

const attempt = (email: string, password: string, address: string | null = null, on: Db = db(), deviceIds: string[] = []) =>
  signInWithPassword({ db: on, input: { email, password, address, deviceIds } });
const lockouts = () => db().select().from(auditEvents).where(eq(auditEvents.action, 'sign_in.lockout')).orderBy(auditEvents.seq);

describe('settings', () => {
  it('defaults (10 per account, 50 per address, 100 a minute site-wide, 15-minute window and lockout) and env overrides; nonsense falls back', () => {
    expect(signInThrottleSettings({})).toEqual({ accountLimit: 10, addressLimit: 50, siteLimitPerMinute: 100, windowMinutes: 15, lockoutMinutes: 15 });
    expect(
      signInThrottleSettings({
        SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '0',
        SIGN_IN_MAX_FAILURES_PER_ADDRESS: '7',
        SIGN_IN_MAX_FAILURES_PER_MINUTE: '0',
        SIGN_IN_WINDOW_MINUTES: '5',
        SIGN_IN_LOCKOUT_MINUTES: '60',
      }),
    ).toEqual({ accountLimit: 0, addressLimit: 7, siteLimitPerMinute: 0, windowMinutes: 5, lockoutMinutes: 60 });
    expect(
      signInThrottleSettings({
        SIGN_IN_MAX_FAILURES_PER_ACCOUNT: 'x',
        SIGN_IN_MAX_FAILURES_PER_ADDRESS: '-1',
        SIGN_IN_MAX_FAILURES_PER_MINUTE: 'many',
        SIGN_IN_WINDOW_MINUTES: '0',
        SIGN_IN_LOCKOUT_MINUTES: '1.5',
      }),
    ).toEqual({ accountLimit: 10, addressLimit: 50, siteLimitPerMinute: 100, windowMinutes: 15, lockoutMinutes: 15 });
  });
});

describe('per account', () => {
  it('the limit-th failure locks the account out with one sign_in.lockout event; then even the right password is refused unchecked', async () => {
    for (let i = 0; i < 3; i++) expect(await attempt('ann@x.example', 'wrong')).toEqual({ outcome: 'invalid' });
    expect(await attempt('ann@x.example', PASSWORD)).toEqual({ outcome: 'locked_out', retryAfterMinutes: 15 });

    const events = await lockouts();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorOrgId: ORG.platform, actorJob: 'sign-in-throttle', actorUserId: null, via: 'console', nodeId: null, unitIds: [] });
    expect(events[0]!.details).toEqual({
      scope: 'account',
      email: 'ann@x.example',
      userId: 'u_ann',
      failures: 3,
      windowMinutes: 15,
      lockedUntil: expect.any(String),
    });
    // The operator's bell: one notification to the platform org, with the event's details.
    const bell = await db().select().from(notifications).where(eq(notifications.kind, 'sign_in.lockout'));
    expect(bell.map((n) => [n.orgId, n.details])).toEqual([[ORG.platform, events[0]!.details]]);
    // Refused attempts neither count nor write more events.
    await attempt('ann@x.example', 'wrong');
    expect(await lockouts()).toHaveLength(1);
    expect(await db().select().from(notifications).where(eq(notifications.kind, 'sign_in.lockout'))).toHaveLength(1);

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

  it('an unknown email counts and locks out exactly like an account (nothing tells them apart), but writes no audit event nor notification', async () => {
    const before = (await lockouts()).length;
    const notified = (await db().select().from(notifications)).length;
    for (let i = 0; i < 3; i++) expect(await attempt('nobody@x.example', 'wrong')).toEqual({ outcome: 'invalid' });
    expect(await attempt('nobody@x.example', 'wrong')).toEqual({ outcome: 'locked_out', retryAfterMinutes: 15 });
    expect(await lockouts()).toHaveLength(before);
    expect(await db().select().from(notifications)).toHaveLength(notified);
    const [row] = await db().select().from(signInThrottles).where(eq(signInThrottles.subject, 'account:nobody@x.example'));
    expect(row?.lockedUntil).toBeInstanceOf(Date);
  });

  it('parallel guesses, on two pools (two app instances), get no more password checks than the limit, and one event', async () => {
    const second = createDb(tdb.url, { max: 4 });
    try {
      const before = (await lockouts()).length;
      // Eight slots: the CPU guard is not what this test is about.
      const gate = new PasswordCheckGate(8);
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          signInWithPassword({ db: i % 2 ? second.db : db(), gate, input: { email: 'eve@x.example', password: 'wrong', address: null, deviceIds: [] } }),
        ),
      );
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
    expect((await db().select().from(signInThrottles)).map((r) => r.subject)).toEqual(['site']);
  });
});

describe('per client address', () => {
  it('failures for any accounts from one address lock the address (no audit event: no account is locked); other addresses and no address still get through', async () => {
    process.env.SIGN_IN_MAX_FAILURES_PER_ACCOUNT = '0';
    const before = (await lockouts()).length;
    for (const who of ['p1', 'p2', 'p3', 'p4', 'p5']) expect(await attempt(`${who}@x.example`, 'wrong', '203.0.113.7')).toEqual({ outcome: 'invalid' });
    expect(await attempt('ann@x.example', PASSWORD, '203.0.113.7')).toEqual({ outcome: 'locked_out', retryAfterMinutes: 15 });
    expect(await attempt('ann@x.example', PASSWORD, '203.0.113.8')).toMatchObject({ outcome: 'signed_in' });
    expect(await attempt('ann@x.example', PASSWORD, null)).toMatchObject({ outcome: 'signed_in' });
    expect(await lockouts()).toHaveLength(before);
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

/** Signs `email` in from a fresh browser and @returns the device the browser now holds. */
async function knownDeviceOf(email: string): Promise<string> {
  const r = await attempt(email, PASSWORD);
  if (r.outcome !== 'signed_in') throw new Error(`${email} did not sign in: ${r.outcome}`);
  return r.deviceId;
}

describe('known devices (a third party cannot lock the account’s own browsers out)', () => {
  it('after ten third-party failures the account refuses unknown browsers, while the browser it knows signs in', async () => {
    const device = await knownDeviceOf('ann@x.example');
    for (let i = 0; i < 3; i++) await attempt('ann@x.example', 'wrong');
    expect(await attempt('ann@x.example', PASSWORD)).toEqual({ outcome: 'locked_out', retryAfterMinutes: 15 });
    expect(await attempt('ann@x.example', PASSWORD, null, db(), [device])).toMatchObject({ outcome: 'signed_in', user: { id: 'u_ann' }, deviceId: device });
    // Its success does not forgive the third party's failures: strangers are still refused.
    expect(await attempt('ann@x.example', PASSWORD)).toMatchObject({ outcome: 'locked_out' });
  });

  it('a known device has its own counter with the account’s limits: its lockout writes one event and leaves other browsers alone', async () => {
    const device = await knownDeviceOf('bob@x.example');
    const before = (await lockouts()).length;
    for (let i = 0; i < 3; i++) expect(await attempt('bob@x.example', 'wrong', null, db(), [device])).toEqual({ outcome: 'invalid' });
    expect(await attempt('bob@x.example', PASSWORD, null, db(), [device])).toEqual({ outcome: 'locked_out', retryAfterMinutes: 15 });
    const events = await lockouts();
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)!.details).toEqual({
      scope: 'device',
      email: 'bob@x.example',
      userId: 'u_bob',
      deviceId: device,
      failures: 3,
      windowMinutes: 15,
      lockedUntil: expect.any(String),
    });
    // The account's own counter never moved: another browser signs in (and becomes known).
    const second = await knownDeviceOf('bob@x.example');
    // Its own lockout, while the first device's lasts, is not recorded again: devices are free to mint.
    for (let i = 0; i < 3; i++) await attempt('bob@x.example', 'wrong', null, db(), [second]);
    expect(await attempt('bob@x.example', PASSWORD, null, db(), [second])).toMatchObject({ outcome: 'locked_out' });
    expect(await lockouts()).toHaveLength(before + 1);
  });

  it('a device counts only for its own account, and not once revoked ("sign out everywhere")', async () => {
    const catsDevice = await knownDeviceOf('cat@x.example');
    for (let i = 0; i < 3; i++) await attempt('dan@x.example', 'wrong');
    // Cat's browser is a stranger to Dan's account.
    expect(await attempt('dan@x.example', PASSWORD, null, db(), [catsDevice])).toMatchObject({ outcome: 'locked_out' });
    for (let i = 0; i < 3; i++) await attempt('cat@x.example', 'wrong');
    expect(await revokeUserDevices(db(), 'u_cat')).toBeGreaterThanOrEqual(1);
    expect(await attempt('cat@x.example', PASSWORD, null, db(), [catsDevice])).toMatchObject({ outcome: 'locked_out' });
  });

  it('a new browser gets a new device; a known one keeps its id', async () => {
    const first = await knownDeviceOf('eve@x.example');
    const second = await knownDeviceOf('eve@x.example');
    expect(second).not.toBe(first);
    expect(await attempt('eve@x.example', PASSWORD, null, db(), [second])).toMatchObject({ outcome: 'signed_in', deviceId: second });
  });
});

describe('the site-wide failure budget', () => {
  it('once spent, refuses browsers no account knows until its minute ends, never a known device; unknown emails write no audit rows', async () => {
    process.env.SIGN_IN_MAX_FAILURES_PER_MINUTE = '4';
    const device = await knownDeviceOf('ann@x.example');
    const events = (await db().select().from(auditEvents)).length;
    for (let i = 0; i < 4; i++) expect(await attempt(`bogus-${i}@nowhere.example`, 'wrong')).toEqual({ outcome: 'invalid' });
    const paused = await attempt('bob@x.example', PASSWORD);
    expect(paused).toMatchObject({ outcome: 'paused' });
    expect(paused.outcome === 'paused' && paused.retryAfterSeconds).toBeGreaterThan(0);
    expect(await attempt('ann@x.example', PASSWORD, null, db(), [device])).toMatchObject({ outcome: 'signed_in' });
    expect((await db().select().from(auditEvents)).length).toBe(events);
    // The minute is over (PostgreSQL's clock decides).
    await db().execute(sql`update sign_in_throttles set window_started_at = now() - interval '61 seconds' where subject = 'site'`);
    expect(await attempt('bob@x.example', PASSWORD)).toMatchObject({ outcome: 'signed_in' });
  });

  it('a success gives its attempt back to the budget', async () => {
    process.env.SIGN_IN_MAX_FAILURES_PER_MINUTE = '2';
    for (let i = 0; i < 5; i++) expect(await attempt('cat@x.example', PASSWORD)).toMatchObject({ outcome: 'signed_in' });
    await attempt('bogus@nowhere.example', 'wrong');
    expect(await attempt('dan@x.example', PASSWORD)).toMatchObject({ outcome: 'signed_in' });
  });
});

describe('the CPU guard (bounded password checks)', () => {
  it('an unknown browser finding every slot taken is refused at once, with nothing counted; a known device waits for a slot', async () => {
    const gate = new PasswordCheckGate(1);
    const device = await knownDeviceOf('ann@x.example');
    const held = gate.tryEnter()!;
    const rows = await db().select().from(signInThrottles);
    expect(await signInWithPassword({ db: db(), gate, input: { email: 'bob@x.example', password: PASSWORD, address: null, deviceIds: [] } })).toEqual({
      outcome: 'busy',
      retryAfterSeconds: 1,
    });
    expect(await db().select().from(signInThrottles)).toEqual(rows);
    const waiting = signInWithPassword({ db: db(), gate, input: { email: 'ann@x.example', password: PASSWORD, address: null, deviceIds: [device] } });
    await new Promise((r) => setTimeout(r, 50));
    held();
    expect(await waiting).toMatchObject({ outcome: 'signed_in' });
    expect(gate.busy).toBe(false);
  });

  it('known devices wait one per account: a second device of the same account is refused while the first waits', async () => {
    const gate = new PasswordCheckGate(1);
    const [d1, d2] = [await knownDeviceOf('cat@x.example'), await knownDeviceOf('cat@x.example')];
    const held = gate.tryEnter()!;
    const first = signInWithPassword({ db: db(), gate, input: { email: 'cat@x.example', password: PASSWORD, address: null, deviceIds: [d1] } });
    await new Promise((r) => setTimeout(r, 50));
    expect(await signInWithPassword({ db: db(), gate, input: { email: 'cat@x.example', password: PASSWORD, address: null, deviceIds: [d2] } })).toEqual({
      outcome: 'busy',
      retryAfterSeconds: 1,
    });
    held();
    expect(await first).toMatchObject({ outcome: 'signed_in' });
  });

  it('the gate: at most `bound` at once, waiters first when a slot frees, one wait per key, bounded waiters, timeouts', async () => {
    const gate = new PasswordCheckGate(2, 2);
    const a = gate.tryEnter()!;
    const b = gate.tryEnter()!;
    expect(gate.tryEnter()).toBeNull();
    const w1 = gate.enter('d1', 1_000);
    expect(await gate.enter('d1', 1_000)).toBeNull(); // the same device already waits
    const w2 = gate.enter('d2', 20);
    expect(await gate.enter('d3', 1_000)).toBeNull(); // too many waiters
    expect(await w2).toBeNull(); // timed out
    a();
    a(); // a second release is a no-op
    const c = await w1;
    expect(c).not.toBeNull();
    expect(gate.tryEnter()).toBeNull(); // the freed slot went to the waiter
    b();
    c!();
    expect(gate.busy).toBe(false);
  });

  it('a lease holds a slot until claimed (then the claimer releases it) or until it lapses; a ticket claims once', async () => {
    const gate = new PasswordCheckGate(1);
    const ticket = gate.lease(1_000)!;
    expect(gate.lease(1_000)).toBeNull();
    expect(gate.claim('forged')).toBeNull();
    const slot = gate.claim(ticket)!;
    expect(gate.claim(ticket)).toBeNull();
    expect(gate.busy).toBe(true);
    slot();
    expect(gate.busy).toBe(false);
    gate.lease(20);
    expect(gate.busy).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    expect(gate.busy).toBe(false);
  });
});

describe('unlock (operator)', () => {
  it('lists locked known accounts, lifts the lock with one sign_in.unlock event naming the operator; others get 403', async () => {
    const operator = ctxFor(db(), ORG.platform, new Date(), 'console');
    const device = await knownDeviceOf('dan@x.example');
    for (let i = 0; i < 3; i++) await attempt('dan@x.example', 'wrong');
    for (let i = 0; i < 3; i++) await attempt('dan@x.example', 'wrong', null, db(), [device]);
    for (let i = 0; i < 3; i++) await attempt('ghost@x.example', 'wrong');
    const now = new Date(Date.now() + 1_000);
    const { items } = await listLockedSignIns({ ctx: { ...operator, now } });
    expect(items.map((i) => [i.email, i.scope, i.failures])).toEqual(
      expect.arrayContaining([
        ['dan@x.example', 'account', 3],
        ['dan@x.example', 'device', 3],
      ]),
    );
    expect(items.some((i) => i.email === 'ghost@x.example')).toBe(false);

    await expect(listLockedSignIns({ ctx: ctxFor(db(), 'org_a', now) })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(unlockSignIn({ ctx: ctxFor(db(), 'org_a', now), input: { userId: 'u_dan' } })).rejects.toBeInstanceOf(DomainError);
    await expect(unlockSignIn({ ctx: { ...operator, now }, input: { userId: 'u_nobody' } })).rejects.toMatchObject({ code: 'not_found' });

    expect(await unlockSignIn({ ctx: { ...operator, now }, input: { userId: 'u_dan' } })).toEqual({
      userId: 'u_dan',
      email: 'dan@x.example',
      unlocked: ['account', 'device'],
    });
    const [event] = await db().select().from(auditEvents).where(eq(auditEvents.action, 'sign_in.unlock'));
    expect(event).toMatchObject({
      actorOrgId: ORG.platform,
      via: 'console',
      nodeId: null,
      details: { email: 'dan@x.example', userId: 'u_dan', unlocked: ['account', 'device'], failures: 6 },
    });
    expect((await listLockedSignIns({ ctx: { ...operator, now } })).items.some((i) => i.email === 'dan@x.example')).toBe(false);
    expect(await attempt('dan@x.example', PASSWORD)).toMatchObject({ outcome: 'signed_in' });
    // Nothing locked: nothing changes, nothing is written.
    expect(await unlockSignIn({ ctx: { ...operator, now }, input: { userId: 'u_dan' } })).toEqual({ userId: 'u_dan', email: 'dan@x.example', unlocked: [] });
    expect(await db().select().from(auditEvents).where(eq(auditEvents.action, 'sign_in.unlock'))).toHaveLength(1);
  });
});
