/**
 * A reservation's status history (docs/product.md §4, §6 reservation page): its audited changes
 * the caller may see (§2), and the moments its status changed by itself — the period's start
 * and end, and topology changes — each with the status from then on, ending at the status the
 * reservation has now.
 */
import { gpuUnits } from '@/db/factories';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { changeTopology } from '../nodes/topology';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG } from '../testing/scene';
import { cancelReservation } from './cancel';
import { createReservation } from './create';
import { getReservation } from './get';
import { getReservationHistory } from './history';
import { reaffirm } from './reaffirm';
import { reclaim } from './reclaim';
import { release } from './release';
import { updateReservation } from './update';

const scene = useFreshScene();
const db = () => scene().db;

/** The history `orgId` reads at `now`, as `kind:status` lines; and it must end at the reservation's status now. */
async function historyOf(orgId: string, reservationId: string, now: Date): Promise<string[]> {
  const input = { nodeId: 'n1', reservationId };
  const { entries, truncated } = await getReservationHistory({ ctx: ctxFor(db(), orgId, now), input });
  expect(truncated).toBe(false);
  const current = await getReservation({ ctx: ctxFor(db(), orgId, now), input });
  expect(entries.at(-1)?.status, `${reservationId} as ${orgId} ends at its status now`).toBe(current.status);
  for (let i = 1; i < entries.length; i++) expect(entries[i]!.at >= entries[i - 1]!.at, 'oldest first').toBe(true);
  return entries.map((e) => `${e.kind}:${e.status}`);
}

describe('getReservationHistory', () => {
  it('a reservation without audit events (factory-made): created, while active', async () => {
    expect(await historyOf(ORG.owner, 'r1', hours(0))).toEqual(['created:active']);
    // Past its end it has expired by itself.
    expect(await historyOf(ORG.owner, 'r1', hours(30))).toEqual(['created:active', 'expired:expired']);
  });

  it('pending → active → expired from startsAt and endsAt, around an audited edit', async () => {
    const owner = (h: number) => ctxFor(db(), ORG.owner, hours(h));
    await createReservation({
      ctx: owner(0),
      input: { nodeId: 'n1', id: 'r-later', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], startsAt: hours(2), endsAt: hours(5) },
    });
    await updateReservation({ ctx: owner(1), input: { nodeId: 'n1', reservationId: 'r-later', contractRef: 'C-7', reason: 'paperwork' } });
    expect(await historyOf(ORG.owner, 'r-later', hours(1.5))).toEqual(['created:pending', 'updated:pending']);
    expect(await historyOf(ORG.owner, 'r-later', hours(3))).toEqual(['created:pending', 'updated:pending', 'started:active']);
    expect(await historyOf(ORG.owner, 'r-later', hours(6))).toEqual(['created:pending', 'updated:pending', 'started:active', 'expired:expired']);
    const { entries } = await getReservationHistory({ ctx: owner(6), input: { nodeId: 'n1', reservationId: 'r-later' } });
    expect(entries[0]).toMatchObject({ at: hours(0).toISOString(), event: { action: 'reservation.create', actorOrgId: ORG.owner } });
    expect(entries[1]).toMatchObject({
      at: hours(1).toISOString(),
      event: { action: 'reservation.update', reason: 'paperwork', details: { contractRef: 'C-7' } },
    });
    expect(entries[2]).toEqual({ at: hours(2).toISOString(), kind: 'started', status: 'active' });
    expect(entries[3]).toEqual({ at: hours(5).toISOString(), kind: 'expired', status: 'expired' });
  });

  it('needs-review from a topology change to a newer generation, until re-affirmed', async () => {
    await changeTopology({ ctx: ctxFor(db(), ORG.platform, hours(1)), input: { nodeId: 'n1', units: [...gpuUnits(8), { id: 'gpu-8' }] } });
    expect(await historyOf(ORG.platform, 'r1', hours(1.5))).toEqual(['created:active', 'needs-review:needs-review']);
    await reaffirm({ ctx: ctxFor(db(), ORG.platform, hours(2)), input: { nodeId: 'n1', reservationId: 'r1', reason: 'checked' } });
    expect(await historyOf(ORG.platform, 'r1', hours(3))).toEqual(['created:active', 'needs-review:needs-review', 'reaffirmed:active']);
    const { entries } = await getReservationHistory({ ctx: ctxFor(db(), ORG.platform, hours(3)), input: { nodeId: 'n1', reservationId: 'r1' } });
    expect(entries[1]).toMatchObject({ kind: 'needs-review', topologyGen: 2, at: hours(1).toISOString() });
    expect(entries[2]!.event).toMatchObject({ action: 'reservation.reaffirm', details: { fromGen: 1, toGen: 2 } });
    // The node owner and the managing org see the re-affirm event (§2), so the same history.
    for (const orgId of [ORG.owner, ORG.managing])
      expect(await historyOf(orgId, 'r1', hours(3)), orgId).toEqual(['created:active', 'needs-review:needs-review', 'reaffirmed:active']);
    // The audience may not see it (§2: its own actions only): the history holds what its trail holds.
    expect(await historyOf(ORG.audience, 'r1', hours(3))).toEqual(['created:active']);
  });

  it('a topology change before the period begins leaves it needs-review at its start', async () => {
    const owner = ctxFor(db(), ORG.owner, hours(0));
    await createReservation({
      ctx: owner,
      input: { nodeId: 'n1', id: 'r-soon', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.audience], startsAt: hours(2) },
    });
    await changeTopology({ ctx: ctxFor(db(), ORG.platform, hours(1)), input: { nodeId: 'n1', units: [...gpuUnits(8), { id: 'gpu-8' }] } });
    // Needs-review outranks pending and active (§4): the start changes nothing, so it is not a line.
    expect(await historyOf(ORG.owner, 'r-soon', hours(3))).toEqual(['created:pending', 'needs-review:needs-review']);
  });

  it('released, reclaimed and cancelled, with their events; cancelled shows even to whom the event is hidden', async () => {
    await release({ ctx: ctxFor(db(), ORG.managing, hours(1)), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    await reclaim({ ctx: ctxFor(db(), ORG.managing, hours(2)), input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-2'], reason: 'need it' } });
    await cancelReservation({ ctx: ctxFor(db(), ORG.owner, hours(3)), input: { nodeId: 'n1', reservationId: 'r1', reason: 'contract ended' } });
    const full = ['created:active', 'released:active', 'reclaimed:active', 'cancelled:cancelled'];
    for (const orgId of [ORG.platform, ORG.owner, ORG.managing]) expect(await historyOf(orgId, 'r1', hours(30)), orgId).toEqual(full);
    const { entries } = await getReservationHistory({ ctx: ctxFor(db(), ORG.owner, hours(30)), input: { nodeId: 'n1', reservationId: 'r1' } });
    expect(entries[2]!.event).toMatchObject({ action: 'reservation.reclaim', reason: 'need it', details: { terminated: ['vm-spot-b'], skipped: [] } });
    expect(entries[3]!.event).toMatchObject({ action: 'reservation.cancel', reason: 'contract ended' });
    // The audience sees none of those events, but its reservation's cancellation still shows (from the row).
    const seenByAudience = await getReservationHistory({ ctx: ctxFor(db(), ORG.audience, hours(30)), input: { nodeId: 'n1', reservationId: 'r1' } });
    expect(seenByAudience.entries).toEqual([
      { at: hours(-24).toISOString(), kind: 'created', status: 'active' },
      { at: hours(3).toISOString(), kind: 'cancelled', status: 'cancelled' },
    ]);
  });

  it('is 404 to whom may not see the reservation', async () => {
    const err = await getReservationHistory({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n1', reservationId: 'r1' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('not_found');
  });
});
