import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, ORG } from '../testing/scene';
import { reclaim } from './reclaim';
import { planReclaim } from './reclaim-plan';
import { choosePlan, comparePlanKeys, planKeyOf, type PlanKey, type PlanVm } from './reclaim-plan-policy';

/** A small deterministic PRNG (mulberry32), so a failing case can be replayed from its seed. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Case = { count: number; reclaimable: string[]; vms: PlanVm[]; position: Map<string, number>; nowMs: number };

/**
 * A random node of 8 units: some released (the reclaimable ones), one- and two-unit spot VMs on
 * some of them (a two-unit VM may have one unit outside the reclaimable ones), reserved-tier or
 * idle units among the rest, ages from minutes to days with ties.
 */
function randomCase(seed: number): Case {
  const r = rng(seed);
  const units = Array.from({ length: 8 }, (_, i) => `gpu-${i}`);
  const position = new Map(units.map((u, i) => [u, i]));
  const reclaimable = units.filter(() => r() < 0.75);
  if (reclaimable.length === 0) reclaimable.push('gpu-0');
  const nowMs = Date.parse('2026-06-01T12:00:00.000Z');
  const vms: PlanVm[] = [];
  const taken = new Set<string>();
  for (let i = 0; i < units.length; i++) {
    const u = units[i]!;
    if (taken.has(u) || r() < 0.35) continue;
    const next = units[i + 1];
    const two = next !== undefined && !taken.has(next) && r() < 0.4;
    const vmUnits = two ? [u, next] : [u];
    vmUnits.forEach((x) => taken.add(x));
    const onReclaimable = vmUnits.filter((x) => reclaimable.includes(x));
    // A reserved-tier VM (or one on units none of which is reclaimable) is no spot VM to the plan.
    if (onReclaimable.length === 0 || r() < 0.15) continue;
    const ages = [5, 30, 60, 120, 600, 1440, 2880];
    vms.push({
      id: `vm-${i}`,
      startedAtMs: nowMs - ages[Math.floor(r() * ages.length)]! * 60_000,
      unitCount: vmUnits.length,
      reclaimableUnitIds: onReclaimable,
    });
  }
  const count = 1 + Math.floor(r() * reclaimable.length);
  return { count, reclaimable, vms, position, nowMs };
}

/** The minimum key over every candidate set: every subset of the reclaimable units that holds each VM it touches whole. */
function bruteForce(c: Case): { key: PlanKey; units: string[] } {
  const onVm = new Map(c.vms.flatMap((v) => v.reclaimableUnitIds.map((u) => [u, v] as const)));
  let best: { key: PlanKey; units: string[] } | undefined;
  for (let mask = 1; mask < 1 << c.reclaimable.length; mask++) {
    const units = c.reclaimable.filter((_, i) => mask & (1 << i));
    if (units.length < c.count) continue;
    const evicted = [...new Set(units.flatMap((u) => (onVm.has(u) ? [onVm.get(u)!] : [])))];
    if (!evicted.every((v) => v.reclaimableUnitIds.every((u) => units.includes(u)))) continue;
    const key = planKeyOf(c.count, units, evicted, c.position, c.nowMs);
    if (!best || comparePlanKeys(key, best.key) < 0) best = { key, units };
  }
  return best!;
}

describe('the fewest-evictions policy (docs/product.md §5.5)', () => {
  it('is the minimum of the full comparison key over every candidate set, on 2,000 random nodes', () => {
    let withVms = 0;
    for (let seed = 1; seed <= 2000; seed++) {
      const c = randomCase(seed);
      const plan = choosePlan(c);
      const onVm = new Map(c.vms.flatMap((v) => v.reclaimableUnitIds.map((u) => [u, v] as const)));
      const evicted = [...new Set(plan.unitIds.flatMap((u) => (onVm.has(u) ? [onVm.get(u)!] : [])))];
      const best = bruteForce(c);
      expect(planKeyOf(c.count, plan.unitIds, evicted, c.position, c.nowMs), `seed ${seed}`).toEqual(best.key);
      expect(plan.unitIds, `seed ${seed}`).toEqual(best.units);
      expect(plan.terminate, `seed ${seed}`).toEqual(evicted.map((v) => v.id).sort());
      if (evicted.length > 0) withVms++;
    }
    // The corpus exercises the interesting part: plans that must evict.
    expect(withVms).toBeGreaterThan(500);
  });

  it('gives the same plan for the same state, whatever order the VMs were read in', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const c = randomCase(seed);
      const a = choosePlan(c);
      expect(choosePlan({ ...c, vms: [...c.vms].reverse() }), `seed ${seed}`).toEqual({ ...a, reasons: expect.any(Array) });
      expect(choosePlan(c)).toEqual(a);
    }
  });

  it('prefers fewer VMs to less work lost, and less work lost to younger VMs; then the younger VMs', () => {
    const position = new Map(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'].map((u, i) => [u, i]));
    const nowMs = 10 * 3_600_000;
    const vm = (id: string, hoursOld: number, units: string[], unitCount = units.length): PlanVm => ({
      id,
      startedAtMs: nowMs - hoursOld * 3_600_000,
      unitCount,
      reclaimableUnitIds: units,
    });
    const plan = (count: number, vms: PlanVm[]) => choosePlan({ count, reclaimable: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'], vms, position, nowMs }).terminate;
    // One old two-unit VM beats two young one-unit VMs: fewer evictions first.
    expect(plan(2, [vm('old-pair', 9, ['gpu-0', 'gpu-1']), vm('young-a', 1, ['gpu-2']), vm('young-b', 1, ['gpu-3'])])).toEqual(['old-pair']);
    // Same count: the least GPU-hours lost (2 × 1 h < 1 × 3 h), though it frees more than asked.
    expect(plan(1, [vm('pair', 1, ['gpu-0', 'gpu-1']), vm('single', 3, ['gpu-2']), vm('other', 5, ['gpu-3'])])).toEqual(['pair']);
    // Same count and GPU-hours (2 × 1 h = 1 × 2 h): the younger VM.
    expect(plan(1, [vm('pair', 1, ['gpu-0', 'gpu-1']), vm('single', 2, ['gpu-2']), vm('other', 5, ['gpu-3'])])).toEqual(['pair']);
  });
});

const scene = useFreshScene();
const db = () => scene().db;
const r1 = { nodeId: 'n1', reservationId: 'r1' };

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof DomainError) return e.code;
    throw e;
  }
}

describe('POST …/reclaim-plan (docs/product.md §5.5)', () => {
  // r1 holds gpu-0 … gpu-5 and has released gpu-0 … gpu-3: vm-spot-a runs on gpu-0 and gpu-1
  // (2 h), vm-spot-b on gpu-2 (1 h), gpu-3 is idle.
  const plan = (count: number, extra: { unitIds?: string[] } = {}, orgId: string = ORG.managing) =>
    planReclaim({ ctx: ctxFor(db(), orgId), input: { ...r1, count, ...extra } });

  it('takes idle units first, then the VMs that lose the least work, each with a reason', async () => {
    expect(await plan(1)).toEqual({
      unitIds: ['gpu-3'],
      wouldTerminate: [],
      wouldSkip: [],
      policy: 'fewest-evictions',
      reasons: [{ kind: 'unit', id: 'gpu-3', code: 'idle', text: 'idle: no spot VM runs on it' }],
    });
    // Two GPUs: gpu-3 and one VM; vm-spot-b loses 1 GPU-hour, vm-spot-a 4.
    const two = await plan(2);
    expect(two).toMatchObject({ unitIds: ['gpu-2', 'gpu-3'], wouldTerminate: ['vm-spot-b'], wouldSkip: [] });
    expect(two.reasons.map((r) => [r.kind, r.id, r.code])).toEqual([
      ['unit', 'gpu-3', 'idle'],
      ['unit', 'gpu-2', 'evicted-vm'],
      ['vm', 'vm-spot-b', 'fewest-evictions'],
    ]);
    expect(two.reasons.at(-1)!.text).toMatch(
      /one of the fewest evictions \(1 of 2 VMs\) that make up 2 GPUs; youngest of the remaining VMs; loses 1\.0 GPU-hours/,
    );
    // Three: one VM still suffices, the two-unit one (taken whole).
    const three = await plan(3);
    expect(three).toMatchObject({ unitIds: ['gpu-0', 'gpu-1', 'gpu-3'], wouldTerminate: ['vm-spot-a'] });
    expect(three.reasons.find((r) => r.id === 'gpu-1')).toMatchObject({
      code: 'same-vm',
      text: 'frees gpu-1 with gpu-0: vm-spot-a runs on both, and goes whole',
    });
    // Within the candidates only, and a multi-unit VM overshoots the count.
    expect(await plan(1, { unitIds: ['gpu-0', 'gpu-1', 'gpu-4'] })).toMatchObject({ unitIds: ['gpu-0', 'gpu-1'], wouldTerminate: ['vm-spot-a'] });
  });

  it('is what the reclaim then does, with its unitIds and expectedTerminate unchanged', async () => {
    const p = await plan(2);
    const done = await reclaim({ ctx: ctxFor(db(), ORG.managing), input: { ...r1, unitIds: p.unitIds, expectedTerminate: p.wouldTerminate } });
    expect(done.terminated).toEqual(p.wouldTerminate);
    expect(done.skipped).toEqual(p.wouldSkip);
    expect(done.releasedUnitIds).toEqual(['gpu-0', 'gpu-1']);
  });

  it('refuses more than the candidates have on the market (409 not_enough_units with available), strays, and the principals reclaim refuses', async () => {
    const e = await plan(5).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).toProblem()).toMatchObject({ status: 409, code: 'not_enough_units', available: 4 });
    expect(await codeOf(plan(3, { unitIds: ['gpu-0', 'gpu-4', 'gpu-5'] }))).toBe('not_enough_units');
    expect(await codeOf(plan(1, { unitIds: ['gpu-7'] }))).toBe('unit_not_in_reservation');
    expect(await codeOf(plan(1, {}, ORG.audience))).toBe('forbidden');
    expect(await codeOf(plan(1, {}, ORG.other))).toBe('not_found');
    expect(await codeOf(plan(1, {}, ORG.owner))).toBe('ok');
    expect(await codeOf(plan(1, {}, ORG.platform))).toBe('ok');
  });
});
