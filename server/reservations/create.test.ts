/**
 * Reservation ids are unique per node: creating one with an id that an invisible reservation
 * uses on another node succeeds, so the 409 can no longer reveal that it exists (docs/product.md §2).
 */
import { insertNode } from '@/db/factories';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG, T0 } from '../testing/scene';
import { createReservation } from './create';
import { getReservation } from './get';

describe('reservation ids are unique per node', () => {
  const scene = useFreshScene();
  const db = () => scene().db;

  it('an id taken on another node does not collide, and each node answers for its own', async () => {
    await insertNode(db(), { id: 'n-other', ownerOrgId: ORG.other, createdAt: hours(-48) });
    // org_other cannot see r1 on n1 (404); its create with that id on its own node succeeds.
    const hidden = await getReservation({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n1', reservationId: 'r1' } }).catch((e: unknown) => e);
    expect((hidden as DomainError).code).toBe('not_found');
    const mine = await createReservation({
      ctx: ctxFor(db(), ORG.other, T0),
      input: { nodeId: 'n-other', id: 'r1', reservedUnitIds: ['gpu-0'], allowedOrgIds: [ORG.tenantA] },
    });
    expect(mine).toMatchObject({ id: 'r1', nodeId: 'n-other', reservedUnitIds: ['gpu-0'] });

    const theirs = await getReservation({ ctx: ctxFor(db(), ORG.owner), input: { nodeId: 'n1', reservationId: 'r1' } });
    expect(theirs).toMatchObject({ id: 'r1', nodeId: 'n1', reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5'] });
    const again = await getReservation({ ctx: ctxFor(db(), ORG.other), input: { nodeId: 'n-other', reservationId: 'r1' } });
    expect(again).toMatchObject({ id: 'r1', nodeId: 'n-other', reservedUnitIds: ['gpu-0'] });
  });

  it('an id taken on the same node is 409 already_exists (its creator may see every reservation there)', async () => {
    const err = await createReservation({
      ctx: ctxFor(db(), ORG.owner, T0),
      input: { nodeId: 'n1', id: 'r1', reservedUnitIds: ['gpu-6'], allowedOrgIds: [ORG.tenantA], startsAt: hours(100) },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('already_exists');
  });
});
