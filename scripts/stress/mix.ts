/**
 * The storm's random mix (docs/product.md §8 R1): placements of every tier, releases, dry and
 * real reclaims with and without `expectedTerminate`, terminations, topology changes and
 * re-affirms, with reads between them, sent by many concurrent clients through the REST API
 * (API keys) and the console's tRPC endpoint (session cookies), spread over every instance.
 *
 * Clients share a loose picture of the fleet (`World`), refreshed from the answers, so that
 * most requests aim at units that can take them; the rest aim anywhere and are refused, which
 * exercises the refusals as much as the writes.
 */
import type { Ack } from './acks';
import { rest, trpc, type Reply, type Session } from './http';

/** A deterministic PRNG (mulberry32), so a seed replays the same choices (not the same timing). */
export function makeRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const sample = <T>(rng: Rng, xs: readonly T[], n: number): T[] => [...xs].sort(() => rng() - 0.5).slice(0, Math.max(1, Math.min(n, xs.length)));

type UnitInfo = { id: string; state: string; reservationId?: string; vmId?: string; model?: string; memoryGiB?: number; nvlinkDomain?: string };
type ReservationInfo = {
  id: string;
  nodeId: string;
  status: string;
  reservedUnitIds: string[];
  releasedUnitIds: string[];
  allowedOrgIds: string[];
  managingOrgIds: string[];
};
type NodeBody = { id: string; ownerOrgId: string; topologyGen: number; units: UnitInfo[] };
type NodeInfo = NodeBody & { reservations: Map<string, ReservationInfo> };

/** What the clients believe about the fleet: possibly stale, never trusted for correctness. */
export class World {
  readonly nodes = new Map<string, NodeInfo>();
  /** Running VMs the storm placed (acknowledged), by id. */
  readonly running = new Map<string, { orgId: string; nodeId: string }>();

  updateNode(node: NodeBody): void {
    const known = this.nodes.get(node.id);
    this.nodes.set(node.id, {
      id: node.id,
      ownerOrgId: node.ownerOrgId,
      topologyGen: node.topologyGen,
      units: node.units,
      reservations: known?.reservations ?? new Map(),
    });
  }

  updateReservation(r: ReservationInfo): void {
    this.nodes.get(r.nodeId)?.reservations.set(r.id, r);
  }

  reservations(): ReservationInfo[] {
    return [...this.nodes.values()].flatMap((n) => [...n.reservations.values()]);
  }
}

export const PLATFORM = 'org_platform';
const TENANTS = ['org_orbit', 'org_quark', 'org_zephyr', 'org_nimbus', 'org_helix', 'org_acme'];

/** Everything a client needs to act. */
export type StormContext = {
  bases: readonly string[];
  keys: Readonly<Record<string, string>>;
  /** Console sessions by the org they act as. */
  sessions: Readonly<Record<string, Session>>;
  world: World;
  acks: Ack[];
  /** Idempotency problems: a replay that differs from the first answer. */
  replayMismatches: string[];
  /** A `read`-only key per org (docs/product.md §2 Scopes). */
  readKeys: Readonly<Record<string, string>>;
  /** A viewer's console session (vera@helix.example, acting as Helix), when signed in. */
  viewer?: Session;
  /** A read a role or scope allows that was refused, or an action it does not allow that was not. */
  accessMismatches: string[];
  record: (kind: string, reply: Reply) => void;
  /**
   * Fault runs: every REST write carries an Idempotency-Key, and those that got no answer or a
   * 503 are kept here, to be retried with the same key once the faults are over.
   */
  faults?: { unanswered: Unanswered[] };
};

/** A REST write that got no answer or a 503 while a fault was injected. */
export type Unanswered = { kind: string; orgId: string; method: string; path: string; body: unknown; key: string; status: number };

/** One client's handle: its own PRNG, a counter for idempotency keys. */
type Client = { ctx: StormContext; rng: Rng; id: number; n: number };

const base = (c: Client) => pick(c.rng, c.ctx.bases);

/** Console if the org has a session and the dice say so, else REST. */
const viaConsole = (c: Client, orgId: string, share = 0.4) => Boolean(c.ctx.sessions[orgId]) && c.rng() < share;

async function restCall(c: Client, kind: string, orgId: string, method: string, path: string, body?: unknown): Promise<Reply> {
  const key = c.ctx.keys[orgId]!;
  const mutating = method !== 'GET';
  const idem = mutating && (c.rng() < 0.15 || c.ctx.faults) ? `storm-${c.id}-${c.n++}` : undefined;
  const first = await rest(base(c), key, method, path, body, idem ? { idempotencyKey: idem } : {});
  c.ctx.record(kind, first);
  if (idem && c.ctx.faults && (first.status === 0 || first.status >= 500))
    c.ctx.faults.unanswered.push({ kind, orgId, method, path, body, key: idem, status: first.status });
  if (idem && first.status > 0 && first.status < 500 && c.rng() < 0.4) {
    // A retry with the same key, possibly on the other instance: the same answer, replayed.
    const again = await rest(base(c), key, method, path, body, { idempotencyKey: idem });
    c.ctx.record(`${kind} (replay)`, again);
    // A replay that met a fault (no answer, 503) is judged by the fault windows, not compared.
    if ((again.status !== 409 || again.code !== 'idempotency_in_progress') && again.status > 0 && again.status < 500) {
      if (again.status !== first.status || again.text !== first.text || !again.replayed)
        c.ctx.replayMismatches.push(
          `${method} ${path} key ${idem}: first ${first.status} ${first.text.slice(0, 200)} / replay ${again.status} replayed=${again.replayed} ${again.text.slice(0, 200)}`,
        );
    }
  }
  return first;
}

async function consoleCall(c: Client, kind: string, orgId: string, type: 'query' | 'mutation', path: string, input: unknown): Promise<Reply> {
  const [reply] = await trpc(base(c), c.ctx.sessions[orgId]!, type, [{ path, input }]);
  c.ctx.record(`${kind} (console)`, reply!);
  return reply!;
}

const ok = (r: Reply) => r.status >= 200 && r.status < 300;

type VmBody = {
  id: string;
  nodeId: string;
  unitIds: string[];
  tier: string;
  orgId?: string;
  reservationId?: string;
  startedAt: string;
  status: string;
  terminationReason?: string;
  terminatedAt?: string;
};
type ReservationBody = ReservationInfo & { updatedAt: string; topologyGen: number; terminated?: string[]; wouldTerminate?: string[] };

function nodeFor(c: Client): NodeInfo {
  return pick(c.rng, [...c.ctx.world.nodes.values()]);
}

/** Units in one of `states` (1–2 of them, mostly), else any units: refusals are part of the mix. */
function unitsFor(c: Client, node: NodeInfo, states: string[], reservationId?: string): string[] {
  const fit = node.units.filter((u) => states.includes(u.state) && (!reservationId || u.reservationId === reservationId)).map((u) => u.id);
  const n = c.rng() < 0.25 ? 2 : 1;
  if (fit.length > 0 && c.rng() < 0.85) return sample(c.rng, fit, n);
  return sample(
    c.rng,
    node.units.map((u) => u.id),
    n,
  );
}

async function place(c: Client, tier: 'spot' | 'on-demand' | 'reserved'): Promise<void> {
  let orgId = pick(c.rng, TENANTS);
  let node = nodeFor(c);
  let reservationId: string | undefined;
  let unitIds: string[];
  if (tier === 'reserved') {
    const active = c.ctx.world.reservations().filter((r) => r.status === 'active');
    const r = active.length > 0 && c.rng() < 0.9 ? pick(c.rng, active) : pick(c.rng, c.ctx.world.reservations());
    node = c.ctx.world.nodes.get(r.nodeId)!;
    reservationId = r.id;
    orgId = c.rng() < 0.9 ? pick(c.rng, r.allowedOrgIds.filter((o) => c.ctx.keys[o]).concat(orgId)) : orgId;
    unitIds = unitsFor(c, node, ['reserved'], r.id);
  } else unitIds = unitsFor(c, node, tier === 'spot' ? ['released', 'free'] : ['free']);
  const input = { nodeId: node.id, unitIds, tier, ...(reservationId ? { reservationId } : {}) };
  const kind = `place.${tier}`;
  const reply = viaConsole(c, orgId)
    ? await consoleCall(c, kind, orgId, 'mutation', 'vms.place', input)
    : await restCall(c, kind, orgId, 'POST', '/v1/vms', input);
  if (!ok(reply)) return;
  const vm = reply.body as VmBody;
  c.ctx.acks.push({
    kind: 'place',
    vmId: vm.id,
    nodeId: vm.nodeId,
    orgId,
    tier: vm.tier,
    ...(vm.reservationId ? { reservationId: vm.reservationId } : {}),
    unitIds: vm.unitIds,
    startedAt: vm.startedAt,
  });
  c.ctx.world.running.set(vm.id, { orgId, nodeId: vm.nodeId });
  for (const u of node.units)
    if (vm.unitIds.includes(u.id)) u.state = u.state === 'released' ? 'spot-occupied' : u.state === 'reserved' ? 'reserved-occupied' : 'occupied';
}

async function terminate(c: Client): Promise<void> {
  const running = [...c.ctx.world.running.entries()];
  if (running.length === 0) return place(c, 'spot');
  const [vmId, vm] = pick(c.rng, running);
  const roll = c.rng();
  // Mostly its own org; sometimes the operator; sometimes someone who may not (403/404).
  const orgId = roll < 0.8 ? vm.orgId : roll < 0.9 ? PLATFORM : pick(c.rng, TENANTS);
  const reply = viaConsole(c, orgId)
    ? await consoleCall(c, 'terminate', orgId, 'mutation', 'vms.terminate', { vmId })
    : await restCall(c, 'terminate', orgId, 'POST', `/v1/vms/${vmId}/terminate`);
  if (!ok(reply)) return;
  const body = reply.body as VmBody;
  c.ctx.acks.push({ kind: 'terminate', vmId, terminationReason: body.terminationReason ?? '', terminatedAt: body.terminatedAt ?? '' });
  c.ctx.world.running.delete(vmId);
}

/** Someone who may act on the reservation's units (docs/product.md §2), or now and then its audience (403). */
function managerOf(c: Client, r: ReservationInfo): string {
  const owner = c.ctx.world.nodes.get(r.nodeId)!.ownerOrgId;
  if (c.rng() < 0.08) return pick(c.rng, r.allowedOrgIds.filter((o) => c.ctx.keys[o]).concat(owner));
  return pick(
    c.rng,
    [...r.managingOrgIds, ...r.managingOrgIds, owner, PLATFORM].filter((o) => c.ctx.keys[o]),
  );
}

function reservationFor(c: Client, preferStatus: string): ReservationInfo {
  const all = c.ctx.world.reservations();
  const preferred = all.filter((r) => r.status === preferStatus);
  return preferred.length > 0 && c.rng() < 0.85 ? pick(c.rng, preferred) : pick(c.rng, all);
}

function afterReservationWrite(c: Client, reply: Reply): ReservationBody | undefined {
  if (!ok(reply)) return undefined;
  const r = reply.body as ReservationBody;
  c.ctx.world.updateReservation(r);
  return r;
}

async function releaseUnits(c: Client): Promise<void> {
  const r = reservationFor(c, 'active');
  const node = c.ctx.world.nodes.get(r.nodeId)!;
  const idle = node.units.filter((u) => u.state === 'reserved' && u.reservationId === r.id).map((u) => u.id);
  const unitIds = idle.length > 0 && c.rng() < 0.85 ? sample(c.rng, idle, 1 + Math.floor(c.rng() * 3)) : sample(c.rng, r.reservedUnitIds, 2);
  const dryRun = c.rng() < 0.15;
  const orgId = managerOf(c, r);
  const input = { unitIds, ...(dryRun ? { dryRun } : {}), ...(c.rng() < 0.3 ? { reason: 'storm: spare capacity' } : {}) };
  const kind = dryRun ? 'release.dry' : 'release';
  const reply = viaConsole(c, orgId)
    ? await consoleCall(c, kind, orgId, 'mutation', 'reservations.release', { nodeId: r.nodeId, reservationId: r.id, ...input })
    : await restCall(c, kind, orgId, 'POST', `/v1/nodes/${r.nodeId}/reservations/${r.id}/release`, input);
  if (dryRun) return;
  const after = afterReservationWrite(c, reply);
  if (after) c.ctx.acks.push({ kind: 'release', nodeId: r.nodeId, reservationId: r.id, unitIds, updatedAt: after.updatedAt });
}

type ReclaimMode = 'dry' | 'preview-confirm' | 'blind' | 'stale';

/**
 * A reclaim (docs/product.md §5.1): a dry run alone; the console's preview then confirm with
 * `expectedTerminate` (asking again once with the new set on 409 `eviction_set_changed`, as
 * the dialog does); a blind one without `expectedTerminate`; or one with a stale set.
 */
async function reclaimUnits(c: Client, mode: ReclaimMode): Promise<void> {
  const r = reservationFor(c, 'active');
  const unitIds =
    r.releasedUnitIds.length > 0 && c.rng() < 0.85 ? sample(c.rng, r.releasedUnitIds, 1 + Math.floor(c.rng() * 4)) : sample(c.rng, r.reservedUnitIds, 2);
  const orgId = managerOf(c, r);
  const console_ = viaConsole(c, orgId, mode === 'preview-confirm' ? 0.8 : 0.3);
  const send = (kind: string, body: Record<string, unknown>) =>
    console_
      ? consoleCall(c, kind, orgId, 'mutation', 'reservations.reclaim', { nodeId: r.nodeId, reservationId: r.id, ...body })
      : restCall(c, kind, orgId, 'POST', `/v1/nodes/${r.nodeId}/reservations/${r.id}/reclaim`, body);
  const reason = c.rng() < 0.5 ? { reason: 'storm: the holder needs its units back' } : {};
  let reply: Reply;
  if (mode === 'dry') {
    await send('reclaim.dry', { unitIds, dryRun: true });
    return;
  } else if (mode === 'preview-confirm') {
    const preview = await send('reclaim.dry', { unitIds, dryRun: true });
    if (!ok(preview)) return;
    const expected = (preview.body as ReservationBody).wouldTerminate ?? [];
    reply = await send('reclaim.confirm', { unitIds, expectedTerminate: expected, ...reason });
    if (reply.status === 409 && reply.code === 'eviction_set_changed') {
      const current = problemField(reply, 'terminate');
      reply = await send('reclaim.confirm-again', { unitIds, expectedTerminate: current, ...reason });
    }
  } else if (mode === 'stale') {
    const stale = c.rng() < 0.5 ? [] : [pick(c.rng, [...c.ctx.world.running.keys(), 'vm-nonexistent'])];
    reply = await send('reclaim.stale', { unitIds, expectedTerminate: stale, ...reason });
  } else reply = await send('reclaim.blind', { unitIds, ...reason });
  const after = afterReservationWrite(c, reply);
  if (!after) return;
  const terminated = after.terminated ?? [];
  c.ctx.acks.push({ kind: 'reclaim', nodeId: r.nodeId, reservationId: r.id, unitIds, terminated, updatedAt: after.updatedAt });
  for (const id of terminated) c.ctx.world.running.delete(id);
}

/** A field of an error answer's problem: REST puts it in the body, tRPC in `data.problem`. */
function problemField(reply: Reply, field: string): string[] {
  const body = reply.body as Record<string, unknown> | undefined;
  const problem = (body?.[field] !== undefined ? body : (body?.data as { problem?: Record<string, unknown> } | undefined)?.problem) ?? {};
  return (problem[field] as string[] | undefined) ?? [];
}

/** The operator changes a node's topology: a unit's memory, or a spare unit `gpu-8` in or out (docs/product.md §5.4). */
async function changeTopology(c: Client): Promise<void> {
  const node = nodeFor(c);
  const units = node.units.map((u) => ({
    id: u.id,
    ...(u.model ? { model: u.model } : {}),
    ...(u.memoryGiB ? { memoryGiB: u.memoryGiB } : {}),
    ...(u.nvlinkDomain ? { nvlinkDomain: u.nvlinkDomain } : {}),
  }));
  let next: typeof units;
  if (c.rng() < 0.5) next = units.map((u) => (u.id === 'gpu-7' ? { ...u, memoryGiB: u.memoryGiB === 96 ? 80 : 96 } : u));
  else if (units.some((u) => u.id === 'gpu-8')) next = units.filter((u) => u.id !== 'gpu-8');
  else next = [...units, { id: 'gpu-8', model: 'L4', memoryGiB: 24, nvlinkDomain: 'pcie' }];
  const reply = viaConsole(c, PLATFORM)
    ? await consoleCall(c, 'topology', PLATFORM, 'mutation', 'nodes.changeTopology', { nodeId: node.id, units: next })
    : await restCall(c, 'topology', PLATFORM, 'PUT', `/v1/nodes/${node.id}/topology`, { units: next });
  if (!ok(reply)) return;
  const body = reply.body as NodeBody;
  c.ctx.world.updateNode(body);
  c.ctx.acks.push({ kind: 'topology', nodeId: node.id, topologyGen: body.topologyGen, unitIds: body.units.map((u) => u.id) });
  // The node's reservations are needs-review now; the next read says so exactly.
  for (const r of c.ctx.world.nodes.get(node.id)!.reservations.values()) if (r.status === 'active' || r.status === 'pending') r.status = 'needs-review';
}

async function reaffirm(c: Client): Promise<void> {
  const r = reservationFor(c, 'needs-review');
  // Now and then someone else tries (403 for everyone but the operator, docs/product.md §2).
  const orgId = c.rng() < 0.92 ? PLATFORM : managerOf(c, r);
  const input = c.rng() < 0.3 ? { reason: 'storm: topology reviewed' } : {};
  const reply = viaConsole(c, orgId)
    ? await consoleCall(c, 'reaffirm', orgId, 'mutation', 'reservations.reaffirm', { nodeId: r.nodeId, reservationId: r.id, ...input })
    : await restCall(c, 'reaffirm', orgId, 'POST', `/v1/nodes/${r.nodeId}/reservations/${r.id}/reaffirm`, input);
  const after = afterReservationWrite(c, reply);
  if (after) c.ctx.acks.push({ kind: 'reaffirm', nodeId: r.nodeId, reservationId: r.id, topologyGen: after.topologyGen, updatedAt: after.updatedAt });
}

/** Refreshes the world's picture of one node as the operator, who sees every id. */
export async function refreshNode(ctx: StormContext, base: string, nodeId: string, record = true): Promise<void> {
  const key = ctx.keys[PLATFORM]!;
  const [node, reservations] = await Promise.all([
    rest(base, key, 'GET', `/v1/nodes/${nodeId}`),
    rest(base, key, 'GET', `/v1/nodes/${nodeId}/reservations?limit=500`),
  ]);
  if (record) {
    ctx.record('read.node', node);
    ctx.record('read.reservations', reservations);
  }
  if (ok(node)) ctx.world.updateNode(node.body as NodeBody);
  if (ok(reservations)) for (const r of (reservations.body as { items: ReservationInfo[] }).items) ctx.world.updateReservation(r);
}

async function read(c: Client): Promise<void> {
  const node = nodeFor(c);
  const roll = c.rng();
  if (roll < 0.35) return refreshNode(c.ctx, base(c), node.id);
  if (roll < 0.65) {
    // The node page's queries, batched as the console sends them.
    const orgId = pick(c.rng, Object.keys(c.ctx.sessions));
    const replies = await trpc(base(c), c.ctx.sessions[orgId]!, 'query', [
      { path: 'nodes.get', input: { nodeId: node.id } },
      { path: 'reservations.listForNode', input: { nodeId: node.id } },
      { path: 'vms.listForNode', input: { nodeId: node.id, status: 'running' } },
    ]);
    for (const r of replies) c.ctx.record('read.node-page (console)', r);
    return;
  }
  const orgId = pick(c.rng, [PLATFORM, ...TENANTS]);
  if (roll < 0.8) await restCall(c, 'read.vms', orgId, 'GET', `/v1/vms?nodeId=${node.id}&status=running`);
  else if (roll < 0.92) await restCall(c, 'read.audit', orgId, 'GET', `/v1/audit?nodeId=${node.id}&limit=50`);
  else await restCall(c, 'read.notifications', orgId, 'GET', '/v1/notifications?limit=20');
}

/**
 * Roles and scopes under load (docs/product.md §2): a `read`-only key reads a node (200) and is
 * refused a reclaim dry run (403 `insufficient_scope`); the viewer's console session reads the
 * node page and is refused a reclaim (403), on whichever instance.
 */
async function withoutTheRight(c: Client): Promise<void> {
  const r = reservationFor(c, 'active');
  const reclaimBody = { unitIds: r.reservedUnitIds.slice(0, 1), dryRun: true };
  const expect = (what: string, reply: Reply, status: number, code?: string) => {
    if (reply.status === 0 || reply.status === 503) return; // a fault's, judged by the fault windows
    if (reply.status !== status || (code && reply.code !== code))
      c.ctx.accessMismatches.push(`${what}: ${reply.status} ${reply.code ?? ''} (expected ${status} ${code ?? ''})`);
  };
  if (c.rng() < 0.5 || !c.ctx.viewer) {
    const orgId = managerOf(c, r);
    const key = c.ctx.readKeys[orgId]!;
    const read = await rest(base(c), key, 'GET', `/v1/nodes/${r.nodeId}`);
    c.ctx.record('scope.read', read);
    expect(`read-only key of ${orgId} GET node`, read, 200);
    const refused = await rest(base(c), key, 'POST', `/v1/nodes/${r.nodeId}/reservations/${r.id}/reclaim`, reclaimBody);
    c.ctx.record('scope.refused', refused);
    expect(`read-only key of ${orgId} reclaim dry run`, refused, 403, 'insufficient_scope');
    return;
  }
  const [page] = await trpc(base(c), c.ctx.viewer, 'query', [{ path: 'nodes.get', input: { nodeId: r.nodeId } }]);
  c.ctx.record('role.viewer-read (console)', page!);
  expect('viewer nodes.get', page!, 200);
  const [refused] = await trpc(base(c), c.ctx.viewer, 'mutation', [
    { path: 'reservations.reclaim', input: { nodeId: r.nodeId, reservationId: r.id, ...reclaimBody } },
  ]);
  c.ctx.record('role.viewer-refused (console)', refused!);
  expect('viewer reclaim', refused!, 403, 'forbidden');
}

/** The mix: weights of each operation. */
const MIX: [number, (c: Client) => Promise<void>][] = [
  [20, read],
  [18, (c) => place(c, 'spot')],
  [6, (c) => place(c, 'reserved')],
  [4, (c) => place(c, 'on-demand')],
  [10, terminate],
  [8, releaseUnits],
  [4, (c) => reclaimUnits(c, 'dry')],
  [6, (c) => reclaimUnits(c, 'preview-confirm')],
  [4, (c) => reclaimUnits(c, 'blind')],
  [2, (c) => reclaimUnits(c, 'stale')],
  [1, changeTopology],
  [3, reaffirm],
  [3, withoutTheRight],
];
const TOTAL = MIX.reduce((s, [w]) => s + w, 0);

/**
 * One client: picks operations from the mix until `until()` says stop, one request chain at a
 * time (a preview and its confirm run back to back, as in the console).
 */
export async function runClient(ctx: StormContext, id: number, seed: number, until: () => boolean): Promise<void> {
  const c: Client = { ctx, rng: makeRng(seed), id, n: 0 };
  while (!until()) {
    let roll = c.rng() * TOTAL;
    const op = MIX.find(([w]) => (roll -= w) < 0)?.[1] ?? read;
    await op(c);
  }
}

/**
 * Retries every write that got no answer or a 503 during a fault, with its Idempotency-Key, once
 * the faults are over. Each was either done whole before the fault (the retry replays its
 * stored answer) or not at all (the retry does it now, once) — never half: the idempotency
 * record commits with the effect. A placement done either way becomes an acknowledged write.
 * @returns the verdict lines, and how many retries failed (a 5xx or no answer).
 */
export async function retryUnanswered(ctx: StormContext, base: string): Promise<{ lines: string[]; failures: number }> {
  const list = ctx.faults?.unanswered ?? [];
  let replayed = 0;
  let doneNow = 0;
  let refusedNow = 0;
  const failed: string[] = [];
  for (const u of list) {
    const r = await rest(base, ctx.keys[u.orgId]!, u.method, u.path, u.body, { idempotencyKey: u.key });
    if (r.status === 0 || r.status >= 500) {
      failed.push(`${u.method} ${u.path} key ${u.key}: ${r.status || 'no answer'} ${r.error ?? r.text.slice(0, 200)}`);
      continue;
    }
    if (r.replayed) replayed += 1;
    else if (ok(r)) doneNow += 1;
    else refusedNow += 1;
    if (ok(r) && u.method === 'POST' && u.path === '/v1/vms') {
      const vm = r.body as VmBody;
      ctx.acks.push({
        kind: 'place',
        vmId: vm.id,
        nodeId: vm.nodeId,
        orgId: u.orgId,
        tier: vm.tier,
        ...(vm.reservationId ? { reservationId: vm.reservationId } : {}),
        unitIds: vm.unitIds,
        startedAt: vm.startedAt,
      });
    }
  }
  const lines = [
    `writes without an answer or with a 503 during the faults: ${list.length}, retried with the same Idempotency-Key: ${replayed} had been done whole (replayed), ${doneNow} had left nothing (done now, once), ${refusedNow} had left nothing (refused now: the fleet moved on), ${failed.length} failed`,
    ...failed.slice(0, 10).map((f) => `  ${f}`),
  ];
  return { lines, failures: failed.length };
}
