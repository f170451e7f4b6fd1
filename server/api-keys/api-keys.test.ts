/**
 * API key management (docs/product.md §2 "manage the org's API keys", §5 routes, §7, §8 R5) on
 * real PostgreSQL: keys are random and stored hashed — the database never holds a secret —,
 * each org sees and revokes only its own (the operator included), a revoked key is refused at
 * once, and `last_used_at` is written at most once a minute per key.
 */
import type { Db } from '@/db/client';
import { apiKeys, auditEvents } from '@/db/schema';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import * as keyRevokeRoute from '@/app/v1/api-keys/[id]/revoke/route';
import * as keysRoute from '@/app/v1/api-keys/route';
import * as nodesRoute from '@/app/v1/nodes/route';
import type { DomainError } from '../errors';
import { encodeCursor } from '../pagination';
import { callRoute } from '../testing/rest';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG, T0 } from '../testing/scene';
import { authenticateApiKey } from './authenticate';
import { createApiKey } from './create';
import { hashApiKeySecret } from './internal';
import { listApiKeys } from './list';
import { revokeApiKey } from './revoke';

/** Every row of every table as text: what a dump of the database would hold. */
async function dumpDatabase(db: Db): Promise<string> {
  const tables = await db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const [row] = await db.execute<{ dump: string | null }>(sql`select string_agg(t::text, E'\n') as dump from ${sql.identifier(name)} t`);
    parts.push(row?.dump ?? '');
  }
  return parts.join('\n');
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as DomainError,
  );
const bearer = (secret: string) => `Bearer ${secret}`;

describe('API key verbs', () => {
  const scene = useFreshScene();
  const db = () => scene().db;

  it('creates a random key whose secret is shown once and stored nowhere, only its SHA-256', async () => {
    const key = await createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: 'ci-deploy' } });
    expect(key).toMatchObject({ name: 'ci-deploy', createdAt: T0.toISOString() });
    expect(key.secret).toMatch(/^gpuk_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(key.secret.slice(0, 11));
    expect(key).not.toHaveProperty('lastUsedAt');
    expect(key).not.toHaveProperty('revokedAt');

    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row).toMatchObject({ orgId: ORG.owner, secretHash: hashApiKeySecret(key.secret), lastUsedAt: null, revokedAt: null });
    // Nowhere in the database — keys, audit trail, anything — is the secret or its random part.
    const dump = await dumpDatabase(db());
    expect(dump).toContain(key.id);
    expect(dump).not.toContain(key.secret);
    expect(dump).not.toContain(key.secret.slice(5));

    const again = await createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: 'ci-deploy' } });
    expect(again.secret).not.toBe(key.secret);
    expect(again.id).not.toBe(key.id);
  });

  it('audits create and revoke as org-level events of the acting org, naming the key but never its secret', async () => {
    const ctx = ctxFor(db(), ORG.tenantA, T0);
    const key = await createApiKey({ ctx, input: { name: 'batch' } });
    await revokeApiKey({ ctx: ctxFor(db(), ORG.tenantA, hours(1)), input: { apiKeyId: key.id } });
    const events = await db().select().from(auditEvents).orderBy(auditEvents.seq);
    expect(events.map((e) => [e.action, e.actorOrgId, e.actorApiKeyId, e.nodeId, e.at.toISOString(), e.details])).toEqual([
      [
        'api_key.create',
        ORG.tenantA,
        `key_${ORG.tenantA}`,
        null,
        T0.toISOString(),
        { apiKeyId: key.id, name: 'batch', prefix: key.prefix, scopes: ['read', 'reservations:write', 'vms:write', 'keys:manage'] },
      ],
      ['api_key.revoke', ORG.tenantA, `key_${ORG.tenantA}`, null, hours(1).toISOString(), { apiKeyId: key.id, name: 'batch', prefix: key.prefix }],
    ]);
  });

  it('lists only the acting org’s keys, newest first, revoked ones with revokedAt; the operator sees only the platform’s', async () => {
    const made: Record<string, string[]> = {};
    for (const [i, orgId] of [ORG.owner, ORG.platform, ORG.owner, ORG.tenantA, ORG.owner].entries()) {
      const key = await createApiKey({ ctx: ctxFor(db(), orgId, hours(i)), input: { name: `k${i}` } });
      (made[orgId] ??= []).push(key.id);
    }
    await revokeApiKey({ ctx: ctxFor(db(), ORG.owner, hours(9)), input: { apiKeyId: made[ORG.owner]![0]! } });

    const owner = await listApiKeys({ ctx: ctxFor(db(), ORG.owner, hours(10)), input: {} });
    expect(owner.items.map((k) => k.name)).toEqual(['k4', 'k2', 'k0']);
    expect(owner.items[2]).toMatchObject({ revokedAt: hours(9).toISOString() });
    expect(owner.items[0]).not.toHaveProperty('revokedAt');
    expect(JSON.stringify(owner)).not.toMatch(/secret/i);
    expect((await listApiKeys({ ctx: ctxFor(db(), ORG.platform, hours(10)), input: {} })).items.map((k) => k.name)).toEqual(['k1']);
    expect((await listApiKeys({ ctx: ctxFor(db(), ORG.other, hours(10)), input: {} })).items).toEqual([]);

    // Pages of one walk the same list, keys created in the same millisecond included.
    await createApiKey({ ctx: ctxFor(db(), ORG.owner, hours(4)), input: { name: 'k4b' } });
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listApiKeys({ ctx: ctxFor(db(), ORG.owner, hours(10)), input: { limit: 1, ...(cursor ? { cursor } : {}) } });
      walked.push(...page.items.map((k) => k.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked.slice(2)).toEqual(['k2', 'k0']);
    expect(walked.slice(0, 2).sort()).toEqual(['k4', 'k4b']);
    expect((await failure(listApiKeys({ ctx: ctxFor(db(), ORG.owner), input: { cursor: 'bm9wZQ' } })))?.code).toBe('invalid_request');
    // Well-formed but past year 9999 (a hand-made console URL): a 400 as well, not the driver's 500.
    for (const ms of ['253402300800000', '999999999999999']) {
      expect((await failure(listApiKeys({ ctx: ctxFor(db(), ORG.owner), input: { cursor: encodeCursor(`${ms}.x`) } })))?.code, ms).toBe('invalid_request');
    }
    expect((await listApiKeys({ ctx: ctxFor(db(), ORG.owner), input: { cursor: encodeCursor('253402300799999.x') } })).items.length).toBeGreaterThan(0);
  });

  it('revokes only the acting org’s own keys: another org’s is 404, the operator’s call included', async () => {
    const key = await createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: 'mine' } });
    for (const orgId of [ORG.platform, ORG.managing, ORG.tenantA]) {
      const err = await failure(revokeApiKey({ ctx: ctxFor(db(), orgId, T0), input: { apiKeyId: key.id } }));
      expect(err?.code, orgId).toBe('not_found');
    }
    expect((await failure(revokeApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { apiKeyId: 'key_nope' } })))?.code).toBe('not_found');
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.revokedAt).toBeNull();
  });

  it('a revoked key stops authenticating at once; revoking it again answers it unchanged and writes nothing', async () => {
    const key = await createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: 'short-lived' } });
    expect((await authenticateApiKey(db(), bearer(key.secret)))?.principal).toEqual({
      orgId: ORG.owner,
      actor: { kind: 'apiKey', apiKeyId: key.id },
      via: 'api',
      // Its scopes come with it, in the one authentication statement (docs/product.md §2 Scopes).
      scopes: ['read', 'reservations:write', 'vms:write', 'keys:manage'],
    });

    const revoked = await revokeApiKey({ ctx: ctxFor(db(), ORG.owner, hours(1)), input: { apiKeyId: key.id } });
    expect(revoked).toMatchObject({ id: key.id, revokedAt: hours(1).toISOString() });
    expect(await authenticateApiKey(db(), bearer(key.secret))).toBeNull();

    const again = await revokeApiKey({ ctx: ctxFor(db(), ORG.owner, hours(2)), input: { apiKeyId: key.id } });
    expect(again.revokedAt).toBe(hours(1).toISOString());
    const events = await db().select({ action: auditEvents.action }).from(auditEvents);
    expect(events.map((e) => e.action)).toEqual(['api_key.create', 'api_key.revoke']);
  });
});

describe('last_used_at: recorded by authentication, at most once a minute per key', () => {
  const scene = useFreshScene();
  const db = () => scene().db;
  const saved = process.env.RATE_LIMIT_PER_MINUTE;
  afterEach(() => {
    if (saved === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
    else process.env.RATE_LIMIT_PER_MINUTE = saved;
  });

  const lastUsed = async (id: string) => (await db().select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, id)))[0]!.at;
  const moveBack = (id: string, seconds: number) =>
    db().execute(sql`update api_keys set last_used_at = last_used_at - make_interval(secs => ${seconds}) where id = ${id}`);

  // Both statements of authenticateApiKey: with the rate limiter, and without it.
  for (const limit of ['600', '0']) {
    it(`is written on first use and then only when a minute old (RATE_LIMIT_PER_MINUTE=${limit})`, async () => {
      process.env.RATE_LIMIT_PER_MINUTE = limit;
      const key = await createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: 'busy' } });
      const other = await createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: 'idle' } });
      expect(await lastUsed(key.id)).toBeNull();

      const auth = await authenticateApiKey(db(), bearer(key.secret));
      const first = await lastUsed(key.id);
      // It is PostgreSQL's clock of that very request (stored to the millisecond, rounded).
      expect(Math.abs(first!.getTime() - auth!.now.getTime())).toBeLessThanOrEqual(1);
      expect(await lastUsed(other.id)).toBeNull();

      for (let i = 0; i < 5; i++) await authenticateApiKey(db(), bearer(key.secret));
      expect(await lastUsed(key.id)).toEqual(first);

      await moveBack(key.id, 50);
      const fiftySecondsAgo = await lastUsed(key.id);
      await authenticateApiKey(db(), bearer(key.secret));
      expect(await lastUsed(key.id)).toEqual(fiftySecondsAgo);

      await moveBack(key.id, 11);
      const later = await authenticateApiKey(db(), bearer(key.secret));
      expect(Math.abs((await lastUsed(key.id))!.getTime() - later!.now.getTime())).toBeLessThanOrEqual(1);
    });
  }

  it('concurrent first requests of one key write it once', async () => {
    const key = await createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: 'burst' } });
    // Counts every write of an api_keys row (this test's database only).
    await db().execute(sql`create table test_key_writes (id text)`);
    await db().execute(
      sql.raw(`create function test_key_write() returns trigger language plpgsql as $$ begin insert into test_key_writes values (new.id); return new; end $$`),
    );
    await db().execute(sql`create trigger test_key_write after update on api_keys for each row execute function test_key_write()`);

    const answers = await Promise.all(Array.from({ length: 8 }, () => authenticateApiKey(db(), bearer(key.secret))));
    expect(answers.every((a) => a?.principal.orgId === ORG.owner)).toBe(true);
    expect(await lastUsed(key.id)).not.toBeNull();
    const writes = await db().execute<{ n: number }>(sql`select count(*)::int as n from test_key_writes`);
    expect(writes[0]!.n).toBe(1);
  });

  it('is never written for a revoked key', async () => {
    const key = await createApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { name: 'gone' } });
    await revokeApiKey({ ctx: ctxFor(db(), ORG.owner, T0), input: { apiKeyId: key.id } });
    expect(await authenticateApiKey(db(), bearer(key.secret))).toBeNull();
    expect(await lastUsed(key.id)).toBeNull();
  });
});

describe('REST: POST/GET /v1/api-keys, POST /v1/api-keys/{id}/revoke', () => {
  // Transports read PostgreSQL's clock: the scene is built around now.
  const scene = useFreshScene(() => new Date());
  const db = () => scene().db;

  async function ownerKey(): Promise<string> {
    const key = await createApiKey({ ctx: ctxFor(db(), ORG.owner, new Date()), input: { name: 'bootstrap' } });
    return key.secret;
  }

  it('creates a key (201, its secret once) that works at once, lists it with lastUsedAt, and is 401 once revoked', async () => {
    const bootstrap = await ownerKey();
    const created = await callRoute(keysRoute.POST, { method: 'POST', path: '/v1/api-keys', key: bootstrap, body: { name: 'from-rest' } });
    expect(created.status, created.text).toBe(201);
    const secret = created.json.secret as string;
    expect(secret).toMatch(/^gpuk_/);
    expect(await dumpDatabase(db())).not.toContain(secret);

    const listed = await callRoute(keysRoute.GET, { path: '/v1/api-keys', key: secret });
    expect(listed.status).toBe(200);
    const items = listed.json.items as { id: string; name: string; lastUsedAt?: string }[];
    expect(items.map((k) => k.name)).toEqual(['from-rest', 'bootstrap']);
    // The listing request itself used the new key.
    expect(items[0]!.lastUsedAt).toEqual(expect.any(String));
    expect(listed.text).not.toContain(secret);

    const revoked = await callRoute(keyRevokeRoute.POST, {
      method: 'POST',
      path: `/v1/api-keys/${created.json.id}/revoke`,
      params: { id: String(created.json.id) },
      key: secret,
    });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.json.revokedAt).toEqual(expect.any(String));
    const after = await callRoute(nodesRoute.GET, { path: '/v1/nodes', key: secret });
    expect(after.status).toBe(401);
    expect(after.json.code).toBe('unauthenticated');
    expect((await callRoute(nodesRoute.GET, { path: '/v1/nodes', key: bootstrap })).status).toBe(200);
  });

  it('refuses an Idempotency-Key on create (its answer holds the secret, which is never stored), creating nothing', async () => {
    const bootstrap = await ownerKey();
    const res = await callRoute(keysRoute.POST, {
      method: 'POST',
      path: '/v1/api-keys',
      key: bootstrap,
      body: { name: 'retry-me' },
      headers: { 'idempotency-key': 'k1' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'invalid_request', errors: [{ path: 'header.Idempotency-Key' }] });
    const names = (await db().select({ name: apiKeys.name }).from(apiKeys)).map((r) => r.name);
    expect(names).not.toContain('retry-me');
    expect(await dumpDatabase(db())).not.toContain('retry-me');
  });

  it('validates the name (400 naming body.name) and refuses another org’s key (404)', async () => {
    const bootstrap = await ownerKey();
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 'ok', extra: 1 }]) {
      const res = await callRoute(keysRoute.POST, { method: 'POST', path: '/v1/api-keys', key: bootstrap, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const named = await callRoute(keysRoute.POST, { method: 'POST', path: '/v1/api-keys', key: bootstrap, body: { name: '' } });
    expect((named.json.errors as { path: string }[]).map((e) => e.path)).toEqual(['body.name']);

    const theirs = await createApiKey({ ctx: ctxFor(db(), ORG.tenantA, new Date()), input: { name: 'theirs' } });
    const res = await callRoute(keyRevokeRoute.POST, { method: 'POST', path: `/v1/api-keys/${theirs.id}/revoke`, params: { id: theirs.id }, key: bootstrap });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(ORG.tenantA);
  });
});
