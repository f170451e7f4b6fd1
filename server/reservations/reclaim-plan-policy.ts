/**
 * The `fewest-evictions` reclaim plan (docs/product.md §5.5): which released units to take back
 * to get `count` GPUs, evicting as little as possible. Pure: the verb (./reclaim-plan.ts) reads
 * the state, this decides.
 *
 * A candidate set is a set of reclaimable units (released units among the candidates) that
 * holds every reclaimable unit of each spot VM it evicts — a VM is taken whole — and at least
 * `count` units. Sets are compared by this key, smallest first:
 *   1. spot VMs terminated;
 *   2. GPU-hours of running work lost: Σ over those VMs of (its units × its age), in unit-ms;
 *   3. their ages, youngest first, compared element by element (a younger VM is evicted first:
 *      "the terminated VMs' start times compared newest first");
 *   4. extra units beyond `count`;
 *   5. the units' positions on the node, ascending, compared element by element.
 * Component 5 tells any two different sets apart, so the plan is unique: the same state at the
 * same clock always gives the same plan.
 *
 * Exact, not a heuristic: the fewest VMs needed comes first (largest first covers the most), then
 * a dynamic programme over the VMs, by (VMs taken, units they free), keeps per state the best
 * (2, 3, 5) of what it has taken. That is enough because adding the same VM to two partial sets
 * keeps their order on each of 2, 3 and 5 (a sum; a sorted list with one element inserted in
 * both), and 4 and the idle units added at the end depend only on the state. A node has at most
 * 64 units, so at most 64 VMs × 64 × 64 states.
 */

/** A spot VM on reclaimable units: what evicting it costs. */
export type PlanVm = { id: string; startedAtMs: number; unitCount: number; reclaimableUnitIds: readonly string[] };

/** One reason of the plan, in plain words (docs/product.md §5.5). */
export type PlanReason = { kind: 'unit' | 'vm'; id: string; code: string; text: string };

export type PlanChoice = {
  /** The units to reclaim, in node order. */
  unitIds: string[];
  /** The spot VMs that go, by id. */
  terminate: string[];
  reasons: PlanReason[];
};

/** The comparison key of docs/product.md §5.5 (see the module comment). */
export type PlanKey = { vms: number; gpuMs: number; agesYoungestFirst: number[]; extra: number; positions: number[] };

/** Lexicographic comparison of two number lists (a shorter prefix first). */
function compareLists(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Negative when `a` is the better (smaller) key. */
export function comparePlanKeys(a: PlanKey, b: PlanKey): number {
  return (
    a.vms - b.vms || a.gpuMs - b.gpuMs || compareLists(a.agesYoungestFirst, b.agesYoungestFirst) || a.extra - b.extra || compareLists(a.positions, b.positions)
  );
}

/** The key of a candidate set: its units, and the VMs it evicts. */
export function planKeyOf(count: number, units: readonly string[], evicted: readonly PlanVm[], position: ReadonlyMap<string, number>, nowMs: number): PlanKey {
  const ages = evicted.map((v) => Math.max(0, nowMs - v.startedAtMs));
  return {
    vms: evicted.length,
    gpuMs: evicted.reduce((sum, v, i) => sum + v.unitCount * ages[i]!, 0),
    agesYoungestFirst: [...ages].sort((a, b) => a - b),
    extra: Math.max(0, units.length - count),
    positions: units.map((u) => position.get(u)!).sort((a, b) => a - b),
  };
}

type Partial = { gpuMs: number; ages: number[]; positions: number[]; vms: number[] };

const insertSorted = (list: readonly number[], values: readonly number[]) => [...list, ...values].sort((a, b) => a - b);
const comparePartials = (a: Partial, b: Partial) => a.gpuMs - b.gpuMs || compareLists(a.ages, b.ages) || compareLists(a.positions, b.positions);

/**
 * The best candidate set for `count` units (docs/product.md §5.5).
 * @param reclaimable the released candidate units, in node order.
 * @param vms the spot VMs on them (each unit runs at most one).
 * @param position each unit's index in the node's unit order.
 * @returns the set, the VMs it terminates, and a reason per unit and per VM.
 * @throws Error when fewer than `count` units are reclaimable (the verb answers 409 before).
 */
export function choosePlan(input: {
  count: number;
  reclaimable: readonly string[];
  vms: readonly PlanVm[];
  position: ReadonlyMap<string, number>;
  nowMs: number;
}): PlanChoice {
  const { count, reclaimable, vms, position, nowMs } = input;
  if (reclaimable.length < count) throw new Error(`only ${reclaimable.length} reclaimable units for ${count}`);
  const onVm = new Map(vms.flatMap((v) => v.reclaimableUnitIds.map((u) => [u, v] as const)));
  const free = reclaimable.filter((u) => !onVm.has(u));
  const needed = count - free.length;

  let chosen: PlanVm[] = [];
  if (needed > 0) {
    // 1. The fewest VMs that can free the rest: the largest first.
    const sizes = vms.map((v) => v.reclaimableUnitIds.length).sort((a, b) => b - a);
    let fewest = 0;
    for (let covered = 0; covered < needed; fewest++) covered += sizes[fewest]!;
    // 2. Exactly `fewest` VMs, best (2, 3, 5) per (taken, units freed).
    const maxUnits = sizes.reduce((a, b) => a + b, 0);
    let best: (Partial | undefined)[][] = Array.from({ length: fewest + 1 }, () => Array<Partial | undefined>(maxUnits + 1));
    best[0]![0] = { gpuMs: 0, ages: [], positions: [], vms: [] };
    vms.forEach((v, i) => {
      const next = best.map((row) => [...row]);
      const age = Math.max(0, nowMs - v.startedAtMs);
      const size = v.reclaimableUnitIds.length;
      const at = v.reclaimableUnitIds.map((u) => position.get(u)!);
      for (let taken = 0; taken < fewest; taken++) {
        for (let units = 0; units + size <= maxUnits; units++) {
          const from = best[taken]![units];
          if (!from) continue;
          const candidate: Partial = {
            gpuMs: from.gpuMs + v.unitCount * age,
            ages: insertSorted(from.ages, [age]),
            positions: insertSorted(from.positions, at),
            vms: [...from.vms, i],
          };
          const current = next[taken + 1]![units + size];
          if (!current || comparePartials(candidate, current) < 0) next[taken + 1]![units + size] = candidate;
        }
      }
      best = next;
    });
    // 3. The best end state by the full key, the idle units it still needs added.
    let winner: { key: PlanKey; vms: number[] } | undefined;
    for (let units = needed; units <= maxUnits; units++) {
      const end = best[fewest]![units];
      if (!end) continue;
      const picked = end.vms.map((i) => vms[i]!);
      const unitSet = [...picked.flatMap((v) => v.reclaimableUnitIds), ...free.slice(0, Math.max(0, count - units))];
      const key = planKeyOf(count, unitSet, picked, position, nowMs);
      if (!winner || comparePlanKeys(key, winner.key) < 0) winner = { key, vms: end.vms };
    }
    chosen = winner!.vms.map((i) => vms[i]!);
  }

  const fromVms = chosen.flatMap((v) => v.reclaimableUnitIds);
  const idleTaken = free.slice(0, Math.max(0, count - fromVms.length));
  const unitIds = [...fromVms, ...idleTaken].sort((a, b) => position.get(a)! - position.get(b)!);
  return { unitIds, terminate: chosen.map((v) => v.id).sort(), reasons: reasonsFor({ count, free, idleTaken, chosen, vms, nowMs }) };
}

const hours = (ms: number) => {
  const h = ms / 3_600_000;
  return h >= 10 ? h.toFixed(0) : h.toFixed(1);
};

/** A reason per chosen unit and per evicted VM, in plain words. */
function reasonsFor(p: {
  count: number;
  free: readonly string[];
  idleTaken: readonly string[];
  chosen: readonly PlanVm[];
  vms: readonly PlanVm[];
  nowMs: number;
}): PlanReason[] {
  const { count, free, idleTaken, chosen, vms, nowMs } = p;
  const reasons: PlanReason[] = idleTaken.map((u) => ({ kind: 'unit', id: u, code: 'idle', text: 'idle: no spot VM runs on it' }));
  const remaining = vms.filter((v) => !chosen.includes(v));
  for (const v of chosen) {
    const [first, ...rest] = v.reclaimableUnitIds;
    reasons.push({ kind: 'unit', id: first!, code: 'evicted-vm', text: `runs ${v.id}, which this plan terminates` });
    for (const u of rest) reasons.push({ kind: 'unit', id: u, code: 'same-vm', text: `frees ${u} with ${first}: ${v.id} runs on both, and goes whole` });
    const lost = `loses ${hours(v.unitCount * Math.max(0, nowMs - v.startedAtMs))} GPU-hours of running work`;
    const why =
      remaining.length === 0
        ? `needed: the idle units give ${Math.min(free.length, count)} of the ${count} GPUs, and every VM on the candidate units must go`
        : `one of the fewest evictions (${chosen.length} of ${vms.length} VMs) that make up ${count} GPUs${youngest(v, remaining) ? '; youngest of the remaining VMs' : ''}`;
    const text = `${why}; ${lost}`;
    reasons.push({ kind: 'vm', id: v.id, code: 'fewest-evictions', text });
  }
  return reasons;
}

/** Whether `v` started no earlier than every VM left running. */
const youngest = (v: PlanVm, others: readonly PlanVm[]) => others.every((o) => o.startedAtMs <= v.startedAtMs);
