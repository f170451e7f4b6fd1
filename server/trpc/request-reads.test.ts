/**
 * One clock read and one node read per console request (issue 10): the node page's batch of
 * four queries shares them, and nothing is shared across requests or into a transaction.
 * Statements are counted on the wire (postgres.js `debug`) against real PostgreSQL.
 */
import { roleGrants } from '../policy';
import type * as DbClient from '@/db/client';
import * as schema from '@/db/schema';
import { nodes } from '@/db/schema';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import superjson from 'superjson';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleSession } from '../auth/sessions';
import { readNode } from '../nodes/internal';
import { createRequestReads } from '../request-reads';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, ORG } from '../testing/scene';
import { handleTrpcRequest } from './http-handler';

const session: { current: ConsoleSession | null } = { current: null };
vi.mock('../auth/console-principal', () => ({ getConsoleSession: async () => session.current }));

// The transport's pool, on the test's database, with every statement it sends recorded.
const sent: string[] = [];
const pools = new Map<string, { db: ReturnType<typeof drizzle<typeof schema>>; client: postgres.Sql }>();
vi.mock('@/db/client', async (importOriginal) => {
  const actual = await importOriginal<typeof DbClient>();
  return {
    ...actual,
    getDb: () => {
      const url = process.env.DATABASE_URL!;
      let pool = pools.get(url);
      if (!pool) {
        const client = postgres(url, { max: 4, onnotice: () => {}, connection: { TimeZone: 'UTC' }, debug: (_c, query) => void sent.push(query) });
        pool = { db: drizzle(client, { schema }), client };
        pools.set(url, pool);
      }
      return pool.db;
    },
  };
});

const scene = useFreshScene(() => new Date());
afterEach(() => {
  session.current = null;
  sent.length = 0;
});
afterAll(async () => {
  for (const p of pools.values()) await p.client.end();
});

function signInAs(orgId: string) {
  session.current = {
    principal: { orgId, actor: { kind: 'user', userId: `user_${orgId}` }, via: 'console', role: 'admin' },
    user: { id: `user_${orgId}`, email: 'x@example.com', name: 'X' },
    orgs: [{ id: orgId, name: orgId, role: 'admin' }],
    sessionId: `ses_${orgId}`,
    grants: roleGrants.admin,
  };
}

/** The node page's batch (components/queries.ts nodePageQueryInputs), as the browser sends it. */
function nodePageBatch(nodeId: string) {
  const calls: [string, unknown][] = [
    ['nodes.get', { nodeId }],
    ['nodes.actions', { nodeId }],
    ['reservations.listForNode', { nodeId, limit: 500 }],
    ['vms.listForNode', { nodeId, status: 'running' }],
  ];
  const input = Object.fromEntries(calls.map(([, i], n) => [String(n), superjson.serialize(i)]));
  const url = `http://localhost:3000/api/trpc/${calls.map(([p]) => p).join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
  return handleTrpcRequest(new Request(url, { headers: { 'sec-fetch-site': 'same-origin' } }));
}

const clockReads = () => sent.filter((q) => /\bnow\(\)/i.test(q) && !/rate_limit_windows|sessions/i.test(q)).length;
const nodeReads = () => sent.filter((q) => /from "nodes"/i.test(q) && !/join/i.test(q)).length;
type BatchItem = { result?: { data: unknown }; error?: { json: { data: { problem: { code: string } } } } };

describe('per-request reads', () => {
  it("the node page's batch reads the clock with the rate-limit count and the node once", async () => {
    signInAs(ORG.managing);
    const res = await nodePageBatch('n1');
    expect(res.status).toBe(200);
    const items = (await res.json()) as BatchItem[];
    expect(items.map((i) => i.error)).toEqual([undefined, undefined, undefined, undefined]);
    expect(superjson.deserialize(items[0]!.result!.data as never)).toMatchObject({ id: 'n1' });
    // Before: a `select now()` and a node read per call (4 + 4).
    expect(clockReads()).toBe(0);
    expect(sent.filter((q) => /rate_limit_windows/.test(q) && /now\(\) as now/.test(q))).toHaveLength(1);
    expect(nodeReads()).toBe(1);
  });

  it('with the rate limit off, the clock is read once for the whole batch', async () => {
    vi.stubEnv('RATE_LIMIT_PER_MINUTE', '0');
    signInAs(ORG.managing);
    expect((await nodePageBatch('n1')).status).toBe(200);
    expect(clockReads()).toBe(1);
    expect(nodeReads()).toBe(1);
    vi.unstubAllEnvs();
  });

  it('an unknown node is not_found for every call of the batch, from one read', async () => {
    signInAs(ORG.managing);
    const items = (await (await nodePageBatch('nope')).json()) as BatchItem[];
    expect(items.map((i) => i.error?.json.data.problem.code)).toEqual(['not_found', 'not_found', 'not_found', 'not_found']);
    expect(nodeReads()).toBe(1);
  });

  it('nothing is shared across requests: the next request reads the node again and sees its change', async () => {
    signInAs(ORG.managing);
    await nodePageBatch('n1');
    await scene().db.update(nodes).set({ name: 'Renamed' }).where(eq(nodes.id, 'n1'));
    const items = (await (await nodePageBatch('n1')).json()) as BatchItem[];
    expect(superjson.deserialize(items[0]!.result!.data as never)).toMatchObject({ name: 'Renamed' });
    expect(nodeReads()).toBe(2);
  });

  it('inside a transaction a verb reads for itself, not from the request', async () => {
    const db = scene().db;
    const reads = createRequestReads(db);
    const ctx = { ...ctxFor(db, ORG.owner), reads };
    expect((await readNode(ctx, 'n1')).name).not.toBe('In tx');
    const inTx = await db.transaction(async (tx) => {
      await tx.update(nodes).set({ name: 'In tx' }).where(eq(nodes.id, 'n1'));
      return readNode({ ...ctx, db: tx }, 'n1');
    });
    expect(inTx.name).toBe('In tx');
    // And on the pool, the request keeps the one read it made.
    expect((await readNode(ctx, 'n1')).name).not.toBe('In tx');
  });
});
