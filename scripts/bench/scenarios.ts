/**
 * What the benchmark fires (issue 10): the floor, reclaim and its dry run, every list route for
 * the principals that make it hard, and the tRPC batches the console's two data-heavy pages make.
 * Each scenario names the principal it acts as: an API key's org, or a console user's session.
 */
import { fleetNodeId } from '../../db/fleet';
import { nodePageQueryInputs, fleetQueryInput } from '../../components/queries';
import { FIXTURE_RESERVATION, RECLAIM_UNITS, fixtureNode } from './fixtures';
import type { BenchRequest } from './load';
import type { Session } from '../stress/http';

export type ScenarioKind = 'floor' | 'dry-run' | 'plan' | 'reclaim' | 'read';

/** What a scenario's requests may refer to in its round. */
export type RoundContext = {
  /** The fleet's node count (its nodes are `fleet-00001` …). */
  nodes: number;
  keys: Record<string, string>;
  sessions: Record<string, Session>;
  /** This round's reclaim fixtures: batch name and count. */
  batch: string;
  fixtures: number;
};

export type Scenario = {
  name: string;
  kind: ScenarioKind;
  /** Who acts, as printed in the table. */
  principal: string;
  /** Also measured at concurrency 1 (the latency targets of the list routes are p50 at concurrency 1). */
  single: boolean;
  request: (ctx: RoundContext, i: number) => BenchRequest;
};

export const OPERATOR_EMAIL = 'olivia@platform.example';
export const OWNER_EMAIL = 'alice@acme.example';

/** The node whose page and lists are read: even, so it has released units and running VMs. */
export const readNode = (ctx: RoundContext) => fleetNodeId(2, ctx.nodes);

const api = (ctx: RoundContext, org: string, method: 'GET' | 'POST', path: string, body?: unknown): BenchRequest => ({
  method,
  path,
  headers: { authorization: `Bearer ${ctx.keys[org]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/** A tRPC query batch as the console's batch link sends it (superjson, `?batch=1&input=`). */
const trpcBatch = (ctx: RoundContext, email: string, calls: { path: string; input: unknown }[]): BenchRequest => {
  const input = Object.fromEntries(calls.map((c, i) => [String(i), { json: c.input }]));
  return {
    method: 'GET',
    path: `/api/trpc/${calls.map((c) => c.path).join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
    headers: { cookie: ctx.sessions[email]!.cookie, 'sec-fetch-site': 'same-origin' },
  };
};

/** A console page's server-rendered HTML, as a signed-in browser asks for it. */
const page = (ctx: RoundContext, email: string, path: string): BenchRequest => ({
  method: 'GET',
  path,
  headers: { cookie: ctx.sessions[email]!.cookie, accept: 'text/html', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' },
});

const reservationPath = (ctx: RoundContext, i: number) => `/v1/nodes/${fixtureNode(ctx.batch, i % ctx.fixtures)}/reservations/${FIXTURE_RESERVATION}`;
const reclaimPath = (ctx: RoundContext, i: number) => `${reservationPath(ctx, i)}/reclaim`;

const read = (name: string, principal: string, request: Scenario['request']): Scenario => ({ name, kind: 'read', principal, single: true, request });

export const scenarios: readonly Scenario[] = [
  {
    name: 'floor',
    kind: 'floor',
    principal: 'org_acme',
    single: false,
    request: (ctx, i) => api(ctx, 'org_acme', 'POST', `/bench/floor?nodeId=${fixtureNode(ctx.batch, i % ctx.fixtures)}`),
  },
  {
    name: 'reclaim dry run',
    kind: 'dry-run',
    principal: 'org_acme',
    single: false,
    request: (ctx, i) => api(ctx, 'org_acme', 'POST', reclaimPath(ctx, i), { unitIds: RECLAIM_UNITS, dryRun: true }),
  },
  {
    // docs/product.md §5.5 on the fixture's 8 units with 4 one-unit spot VMs: 3 GPUs back.
    name: 'reclaim plan',
    kind: 'plan',
    principal: 'org_acme',
    single: false,
    request: (ctx, i) => api(ctx, 'org_acme', 'POST', `${reservationPath(ctx, i)}/reclaim-plan`, { count: 3 }),
  },
  {
    name: 'reclaim',
    kind: 'reclaim',
    principal: 'org_acme',
    single: false,
    request: (ctx, i) => api(ctx, 'org_acme', 'POST', reclaimPath(ctx, i), { unitIds: RECLAIM_UNITS, reason: 'bench' }),
  },
  read('GET /v1/nodes?limit=100', 'operator', (ctx) => api(ctx, 'org_platform', 'GET', '/v1/nodes?limit=100')),
  read('GET /v1/nodes?limit=100', 'org_acme', (ctx) => api(ctx, 'org_acme', 'GET', '/v1/nodes?limit=100')),
  // The fleet's list variants (issue 23): search, sort by name, owner by name, relation, released units, needs review.
  read('GET /v1/nodes?limit=100&q=', 'org_acme', (ctx) => api(ctx, 'org_acme', 'GET', '/v1/nodes?limit=100&q=fleet-004')),
  read('GET /v1/nodes?limit=100&sort=name', 'org_acme', (ctx) => api(ctx, 'org_acme', 'GET', '/v1/nodes?limit=100&sort=name&order=desc')),
  read('GET /v1/nodes?limit=100&owner=', 'org_acme', (ctx) => api(ctx, 'org_acme', 'GET', '/v1/nodes?limit=100&owner=borealis')),
  read('GET /v1/nodes?limit=100&relation=manages', 'org_helix', (ctx) => api(ctx, 'org_helix', 'GET', '/v1/nodes?limit=100&relation=manages')),
  read('GET /v1/nodes?limit=100&hasReleased=true', 'org_acme', (ctx) => api(ctx, 'org_acme', 'GET', '/v1/nodes?limit=100&hasReleased=true')),
  read('GET /v1/nodes?limit=100&needsReview=true', 'org_acme', (ctx) => api(ctx, 'org_acme', 'GET', '/v1/nodes?limit=100&needsReview=true')),
  read('GET /v1/nodes/{id}', 'org_acme', (ctx) => api(ctx, 'org_acme', 'GET', `/v1/nodes/${readNode(ctx)}`)),
  read('GET /v1/vms?limit=500', 'operator', (ctx) => api(ctx, 'org_platform', 'GET', '/v1/vms?limit=500')),
  read('GET /v1/vms?limit=50', 'operator', (ctx) => api(ctx, 'org_platform', 'GET', '/v1/vms?limit=50')),
  read('GET /v1/vms?limit=500', 'org_quark', (ctx) => api(ctx, 'org_quark', 'GET', '/v1/vms?limit=500')),
  read('GET /v1/audit?limit=100', 'operator', (ctx) => api(ctx, 'org_platform', 'GET', '/v1/audit?limit=100')),
  read('GET /v1/audit?limit=100', 'org_acme', (ctx) => api(ctx, 'org_acme', 'GET', '/v1/audit?limit=100')),
  read('GET /v1/audit?limit=100', 'org_zephyr (few events)', (ctx) => api(ctx, 'org_zephyr', 'GET', '/v1/audit?limit=100')),
  read('GET /v1/reservations?limit=100', 'org_nimbus', (ctx) => api(ctx, 'org_nimbus', 'GET', '/v1/reservations?limit=100')),
  read('GET /v1/nodes/{id}/reservations', 'org_acme', (ctx) => api(ctx, 'org_acme', 'GET', `/v1/nodes/${readNode(ctx)}/reservations`)),
  read('GET /v1/notifications?limit=100', 'org_quark', (ctx) => api(ctx, 'org_quark', 'GET', '/v1/notifications?limit=100')),
  read('GET /v1/api-keys', 'org_acme', (ctx) => api(ctx, 'org_acme', 'GET', '/v1/api-keys')),
  read('console: node page (tRPC batch)', OWNER_EMAIL, (ctx) => {
    const q = nodePageQueryInputs(readNode(ctx));
    return trpcBatch(ctx, OWNER_EMAIL, [
      { path: 'nodes.get', input: q.node },
      { path: 'nodes.actions', input: q.node },
      { path: 'reservations.listForNode', input: q.reservations },
      { path: 'vms.listForNode', input: q.vms },
    ]);
  }),
  read('console: fleet page (tRPC)', OPERATOR_EMAIL, (ctx) => trpcBatch(ctx, OPERATOR_EMAIL, [{ path: 'nodes.list', input: fleetQueryInput() }])),
  read('console: node page HTML', OWNER_EMAIL, (ctx) => page(ctx, OWNER_EMAIL, `/nodes/${readNode(ctx)}`)),
  read('console: fleet page HTML', OPERATOR_EMAIL, (ctx) => page(ctx, OPERATOR_EMAIL, '/')),
];

/** A scenario's row key: its name and principal. */
export const scenarioKey = (s: Scenario) => `${s.name} · ${s.principal}`;
