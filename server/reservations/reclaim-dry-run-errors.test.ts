/**
 * The dry run answers exactly what the real reclaim answers, for every principal of
 * docs/product.md §2 and for the 404/403/409/422 cases (whole error: code, detail, extras).
 */
import { insertNode, insertReservation, insertVm } from '@/db/factories';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG, T0 } from '../testing/scene';
import { reclaim } from './reclaim';
import type { ReclaimInput } from './schemas';

const scene = useFreshScene();
const db = () => scene().db;

async function outcome(p: Promise<unknown>) {
  try {
    const r = (await p) as Record<string, unknown>;
    const { wouldTerminate, wouldSkip, terminated, skipped, updatedAt: _updatedAt, ...rest } = r;
    return { ok: { ...rest, evict: wouldTerminate ?? terminated, skip: wouldSkip ?? skipped } };
  } catch (e) {
    if (e instanceof DomainError) return { error: e.toProblem() };
    throw e;
  }
}

async function addMore() {
  // n2: an r1 of its own that org_other can see (audience) but n1/r1 it cannot.
  await insertNode(db(), { id: 'n2', ownerOrgId: ORG.other, createdAt: hours(-72) });
  await insertReservation(db(), {
    id: 'r-only-n2',
    nodeId: 'n2',
    unitIds: ['gpu-0'],
    releasedUnitIds: ['gpu-0'],
    allowedOrgIds: [ORG.audience],
    managingOrgIds: [ORG.managing],
    startsAt: hours(-1),
  });
  // n1: a cancelled one, and a future one on free gpu-6 that runs a spot VM now.
  await insertReservation(db(), {
    id: 'r-cancel',
    nodeId: 'n1',
    unitIds: ['gpu-6'],
    releasedUnitIds: ['gpu-6'],
    allowedOrgIds: [ORG.audience],
    managingOrgIds: [ORG.managing],
    startsAt: hours(30),
    endsAt: hours(40),
    cancelledAt: hours(-1),
  });
  await insertReservation(db(), {
    id: 'r-future',
    nodeId: 'n1',
    unitIds: ['gpu-6'],
    releasedUnitIds: ['gpu-6'],
    allowedOrgIds: [ORG.audience],
    managingOrgIds: [ORG.managing],
    startsAt: hours(48),
  });
  await insertVm(db(), { id: 'vm-on-6', nodeId: 'n1', orgId: ORG.tenantA, tier: 'spot', unitIds: ['gpu-6'], startedAt: hours(-1) });
}

const inputs: Omit<ReclaimInput, 'dryRun'>[] = [
  { nodeId: 'nope', reservationId: 'r1', unitIds: ['gpu-0'] },
  { nodeId: 'n1', reservationId: 'nope', unitIds: ['gpu-0'] },
  { nodeId: 'n1', reservationId: 'r-only-n2', unitIds: ['gpu-0'] },
  { nodeId: 'n2', reservationId: 'r1', unitIds: ['gpu-0'] },
  { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-0', 'gpu-9', 'gpu-7'] },
  { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-1'], expectedTerminate: ['vm-spot-b'] },
  { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-1', 'gpu-4'] },
  { nodeId: 'n1', reservationId: 'r-cancel', unitIds: ['gpu-6'] },
  { nodeId: 'n1', reservationId: 'r-future', unitIds: ['gpu-6'] },
  { nodeId: 'n1', reservationId: 'r-future', unitIds: ['gpu-6'], expectedTerminate: ['vm-on-6'] },
];

describe('dry run vs real reclaim, every principal, every error', () => {
  for (const org of Object.values(ORG)) {
    for (const input of inputs) {
      it(`${org} ${input.nodeId}/${input.reservationId} ${input.unitIds.join(',')} exp=${input.expectedTerminate ?? '-'}`, async () => {
        await addMore();
        const ctx = ctxFor(db(), org, T0);
        const dry = await outcome(reclaim({ ctx, input: { ...input, dryRun: true } }));
        const real = await outcome(reclaim({ ctx, input }));
        if ('ok' in dry && 'ok' in real) {
          // The real run's releasedUnitIds lose the named units; compare the rest.
          const named = new Set(input.unitIds);
          const released = (r: unknown) => (r as { releasedUnitIds: string[] }).releasedUnitIds;
          expect(released(real.ok)).toEqual(released(dry.ok).filter((u) => !named.has(u)));
          delete (real.ok as Record<string, unknown>).releasedUnitIds;
          delete (dry.ok as Record<string, unknown>).releasedUnitIds;
        }
        expect(dry).toEqual(real);
      });
    }
  }
});
