/**
 * The console's tRPC endpoint under abuse: bodies capped as REST's (413 before reading past
 * 64 KiB), batches capped (refused whole), and a signed-in user rate-limited like an API key.
 */
import { roleGrants } from '../policy';
import { vms } from '@/db/schema';
import { count, eq, sql } from 'drizzle-orm';
import superjson from 'superjson';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleSession } from '../auth/sessions';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG } from '../testing/scene';
import { MAX_BATCH_SIZE, countCalls, handleTrpcRequest } from './http-handler';

// The endpoint reads the Auth.js session from Next's request scope; here one user is signed in.
const session: { current: ConsoleSession | null } = { current: null };
vi.mock('../auth/console-principal', () => ({ getConsoleSession: async () => session.current }));

const scene = useFreshScene(() => new Date());
const db = () => scene().db;

function signInAs(orgId: string) {
  session.current = {
    principal: { orgId, actor: { kind: 'user', userId: `user_${orgId}` }, via: 'console', role: 'admin' },
    user: { id: `user_${orgId}`, email: 'x@example.com', name: 'X' },
    orgs: [{ id: orgId, name: orgId, role: 'admin' }],
    sessionId: `ses_${orgId}`,
    grants: roleGrants.admin,
  };
}
afterEach(() => {
  session.current = null;
  vi.unstubAllEnvs();
});

const base = 'http://localhost:3000/api/trpc';
const sameSite = { 'sec-fetch-site': 'same-origin' };
const dryRun = { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0'], dryRun: true };

function post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return handleTrpcRequest(
    new Request(`${base}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...sameSite, ...headers },
      body,
      duplex: 'half',
    } as RequestInit),
  );
}

/** A body that streams `total` bytes in 1 MiB chunks, counting how many were pulled. */
function streamOf(total: number) {
  const chunk = new Uint8Array(1024 * 1024).fill(0x61);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= total) return c.close();
      sent += chunk.byteLength;
      c.enqueue(chunk);
    },
  });
  return { stream, pulled: () => sent };
}

describe('tRPC body cap', () => {
  it('refuses a declared 100 MiB body with 413 problem+json, unread', async () => {
    signInAs(ORG.managing);
    const reason = 'x'.repeat(100 * 1024 * 1024);
    const res = await post('reservations.reclaim', JSON.stringify(superjson.serialize({ ...dryRun, reason })), {
      'content-length': String(reason.length + 100),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('stops reading a streamed body at the first chunk past 64 KiB', async () => {
    signInAs(ORG.managing);
    const body = streamOf(50 * 1024 * 1024);
    const res = await post('reservations.reclaim', body.stream);
    expect(res.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  it('still answers a normal call after the abuse', async () => {
    signInAs(ORG.managing);
    const res = await post('reservations.reclaim', JSON.stringify(superjson.serialize(dryRun)));
    expect(res.status).toBe(200);
    const json = (await res.json()) as { result: { data: unknown } };
    expect(superjson.deserialize(json.result.data as never)).toMatchObject({ wouldTerminate: ['vm-spot-a'] });
  });
});

describe('tRPC batch cap', () => {
  it(`refuses a batch of more than ${MAX_BATCH_SIZE} calls as a whole, before any runs`, async () => {
    signInAs(ORG.tenantA);
    // 1,400 placements no longer fit in 64 KiB (413); 200 do, and meet the batch cap.
    const n = 200;
    const place = superjson.serialize({ nodeId: 'n1', unitIds: ['gpu-6'], tier: 'spot' });
    const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), place]));
    const before = await db().select({ n: count() }).from(vms);
    const res = await post(`${Array.from({ length: n }, () => 'vms.place').join(',')}?batch=1`, JSON.stringify(input));
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('Batch call exceeds maximum size');
    expect(await db().select({ n: count() }).from(vms)).toEqual(before);
  });

  it(`runs a batch of ${MAX_BATCH_SIZE}`, async () => {
    signInAs(ORG.managing);
    const input = Object.fromEntries(Array.from({ length: MAX_BATCH_SIZE }, (_, i) => [String(i), superjson.serialize({ nodeId: 'n1' })]));
    const url = `${base}/${Array.from({ length: MAX_BATCH_SIZE }, () => 'nodes.get').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
    const res = await handleTrpcRequest(new Request(url, { headers: sameSite }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(MAX_BATCH_SIZE);
  });

  it('counts the calls of a request', () => {
    expect(countCalls(new URL(`${base}/a,b,c?batch=1`))).toBe(3);
    expect(countCalls(new URL(`${base}/a`))).toBe(1);
  });
});

describe('console rate limit', () => {
  it('answers 429 with Retry-After once a user has used its minute, counting each batched call', async () => {
    vi.stubEnv('RATE_LIMIT_PER_MINUTE', '20');
    signInAs(ORG.owner);
    const batch = (n: number) => {
      const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), superjson.serialize({ nodeId: 'n1' })]));
      return handleTrpcRequest(
        new Request(`${base}/${Array.from({ length: n }, () => 'nodes.get').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, {
          headers: sameSite,
        }),
      );
    };
    expect((await batch(16)).status).toBe(200);
    expect((await batch(4)).status).toBe(200);
    const limited = await batch(1);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(await limited.json())).toContain('rate_limited');
    // Another user has a window of its own.
    signInAs(ORG.managing);
    expect((await batch(1)).status).toBe(200);
  });

  it('never limits with RATE_LIMIT_PER_MINUTE=0', async () => {
    vi.stubEnv('RATE_LIMIT_PER_MINUTE', '0');
    signInAs(ORG.owner);
    for (let i = 0; i < 3; i++) {
      const res = await handleTrpcRequest(
        new Request(`${base}/nodes.get?input=${encodeURIComponent(JSON.stringify(superjson.serialize({ nodeId: 'n1' })))}`, { headers: sameSite }),
      );
      expect(res.status).toBe(200);
    }
    const [row] = await db().select({ n: count() }).from(vms).where(eq(vms.nodeId, 'n1'));
    expect(row?.n).toBe(4);
  });
});

describe('tRPC errors carry the problem REST would answer', () => {
  it('invalid input is 400 invalid_request with errors[] per field, under input.', async () => {
    signInAs(ORG.managing);
    const res = await post('reservations.reclaim', JSON.stringify(superjson.serialize({ nodeId: 'n1', reservationId: 'r1', unitIds: [], reason: 5 })));
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: { json: { data: { problem: { code: string; status: number; errors: { path: string; message: string }[] } } } };
    };
    const problem = body.error.json.data.problem;
    expect(problem).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(problem.errors.map((e) => e.path).sort()).toEqual(['input.reason', 'input.unitIds']);
  });

  it('a domain error carries its problem', async () => {
    signInAs(ORG.audience);
    const res = await post('reservations.reclaim', JSON.stringify(superjson.serialize(dryRun)));
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { json: { data: { problem: { code: string } } } } };
    expect(body.error.json.data.problem.code).toBe('forbidden');
  });
});

describe('found by the adversarial review', () => {
  it('counts percent-encoded commas as the calls tRPC runs (no way around the limit)', () => {
    expect(countCalls(new URL(`${base}/nodes.get%2Cnodes.get%2cnodes.get?batch=1`))).toBe(3);
    expect(countCalls(new URL(`${base}/%ZZ`))).toBeNull();
  });

  it('an undecodable procedure path is 404, not 500', async () => {
    signInAs(ORG.owner);
    const res = await handleTrpcRequest(new Request(`${base}/%ZZ`, { headers: sameSite }));
    expect(res.status).toBe(404);
  });

  it('an internal error says nothing of internals (no SQL, no parameters)', async () => {
    signInAs(ORG.owner);
    await db().execute(sql`alter table node_units rename to node_units_gone`);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await handleTrpcRequest(
      new Request(`${base}/nodes.get?input=${encodeURIComponent(JSON.stringify(superjson.serialize({ nodeId: 'n1' })))}`, { headers: sameSite }),
    );
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/select|node_units|params|Failed query/i);
    expect(text).toContain('internal_error');
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });
});
