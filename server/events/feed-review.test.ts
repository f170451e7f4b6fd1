/**
 * Review findings (an adversarial review of issue 25) for the events feed (docs/product.md §5.7), now mended. Each test states what the document
 * promises.
 */
import { events } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { updateReservation } from '../reservations/update';
import { failure } from '../testing/failure';
import { useFreshScene } from '../testing/fresh-scene';
import { ORG, ctxFor } from '../testing/scene';
import { Event } from './catalog';
import { listEvents } from './feed';
import { stopEventsListeners } from './listen';

const BASE = new Date(Math.floor(Date.now() / 1000) * 1000);
const scene = useFreshScene(() => BASE);
const db = () => scene().db;
const as = (orgId: string) => ctxFor(db(), orgId, BASE);
const feed = (orgId: string, input: Parameters<typeof listEvents>[0]['input'] = {}) => listEvents({ ctx: as(orgId), input });

afterAll(stopEventsListeners);

describe('review: reservation.updated', () => {
  it('a shrink: unitIds are "the reserved units after the change" (catalog.ts), not the units before it', async () => {
    // r1 holds gpu-0 … gpu-5; gpu-5 is reserved and idle.
    await updateReservation({
      ctx: as(ORG.owner),
      input: { nodeId: 'n1', reservationId: 'r1', reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4'] },
    });
    const [copy] = await db()
      .select()
      .from(events)
      .where(and(eq(events.orgId, ORG.audience), eq(events.type, 'reservation.updated')));
    expect(copy!.data.changes).toEqual({ removedUnitIds: ['gpu-5'] });
    // Parses with the document's schema either way; the content is what is wrong.
    expect(() => Event.parse({ id: copy!.id, type: copy!.type, at: copy!.at.toISOString(), data: copy!.data })).not.toThrow();
    expect(copy!.data.unitIds).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4']);
  });
});

describe('review: feed cursors', () => {
  const forge = (p: { x: number; s: number; t: number }) => Buffer.from(JSON.stringify(p), 'utf8').toString('base64url');

  it('a cursor this API did not hand out is 400 naming query.after (§5.7): one stamped in the future is refused', async () => {
    // Never handed out: a position at 0 stamped 10 years ahead, so it also never expires (no 410 ever).
    const forged = forge({ x: 0, s: 0, t: Date.now() + 10 * 365 * 86_400_000 });
    expect(await failure(feed(ORG.owner, { after: forged }))).toMatchObject({ code: 'invalid_request' });
  });
});
