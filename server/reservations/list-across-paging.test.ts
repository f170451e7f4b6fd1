/**
 * The cross-node list (`listReservations`), cut per visibility branch pages exactly: an org that is owner,
 * audience and managing of the same reservations, interleaved with reservations it sees by one
 * relation only and ones it may not see; every limit, walked through nextCursor, every item once
 * in (nodeId, id) order; foreign cursors (positions of invisible rows) resume correctly.
 */
import { insertNode, insertReservation } from '@/db/factories';
import { reservations, nodes } from '@/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { encodeCursor, compositeKey } from '../pagination';
import { maySeeReservation, relationTo, listsReservation } from '../policy';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG } from '../testing/scene';
import { listReservations } from './list';

const scene = useFreshScene();
const db = () => scene().db;
const me = ORG.tenantA;

async function build() {
  // Node ids chosen to interleave: my nodes, others' nodes; reservations of every relation mix.
  const owners = [me, ORG.other, me, ORG.owner, ORG.other, me];
  let unit = 0;
  for (let n = 0; n < owners.length; n++) {
    const nodeId = `x${n}`;
    await insertNode(db(), { id: nodeId, ownerOrgId: owners[n]!, createdAt: hours(-72) });
    const mixes: [string[], string[]][] = [
      [[me], [me]], // audience + managing (+ owner on my nodes)
      [[ORG.audience], []], // owner only on my nodes, else invisible
      [[me], []], // audience only
      [[ORG.audience], [me]], // managing only
      [[ORG.tenantB], [ORG.managing]], // invisible unless I own the node
      [
        [me, ORG.tenantB],
        [me, ORG.managing],
      ],
    ];
    for (let i = 0; i < mixes.length; i++) {
      await insertReservation(db(), {
        id: `r${(i * 7) % 6}${n}`,
        nodeId,
        unitIds: [`gpu-${unit++ % 8}`],
        allowedOrgIds: mixes[i]![0],
        managingOrgIds: mixes[i]![1],
        startsAt: hours(-10 - i * 100),
        endsAt: hours(-10 - i * 100 + 50),
      });
    }
  }
}

describe('cross-node paging, cut per branch', () => {
  it('every limit, every role: each visible item exactly once, in order, none invisible', async () => {
    await build();
    const all = await db().select({ r: reservations, ownerOrgId: nodes.ownerOrgId }).from(reservations).innerJoin(nodes, eq(nodes.id, reservations.nodeId));
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const sorted = all.sort((a, b) => cmp(a.r.nodeId, b.r.nodeId) || cmp(a.r.id, b.r.id));
    for (const orgId of [me, ORG.platform, ORG.owner, ORG.other]) {
      const p = ctxFor(db(), orgId);
      for (const role of ['any', 'audience', 'managing'] as const) {
        const want = sorted.filter(({ r, ownerOrgId }) => listsReservation(relationTo(p, { ownerOrgId }, r), role)).map(({ r }) => `${r.nodeId}/${r.id}`);
        for (const limit of [1, 2, 3, 5, 7, 500]) {
          const got: string[] = [];
          let cursor: string | undefined;
          for (let guard = 0; guard < 200; guard++) {
            const page = await listReservations({ ctx: p, input: { role, limit, ...(cursor ? { cursor } : {}) } });
            expect(page.items.length).toBeLessThanOrEqual(limit);
            got.push(...page.items.map((r) => `${r.nodeId}/${r.id}`));
            if (!page.nextCursor) break;
            expect(page.items.length).toBe(limit);
            cursor = page.nextCursor;
          }
          expect(got, `${orgId} role=${role} limit=${limit}`).toEqual(want);
        }
        // A cursor at every row, visible or not (another org's cursor), resumes right after it.
        for (const { r } of sorted) {
          const page = await listReservations({ ctx: p, input: { role, limit: 2, cursor: encodeCursor(compositeKey(r.nodeId, r.id)) } });
          const key = `${r.nodeId}/${r.id}`;
          const rest = want.filter((k) => {
            const [n, i] = k.split('/');
            return cmp(n!, r.nodeId) > 0 || (n === r.nodeId && cmp(i!, r.id) > 0);
          });
          expect(
            page.items.map((x) => `${x.nodeId}/${x.id}`),
            `${orgId} ${role} after ${key}`,
          ).toEqual(rest.slice(0, 2));
          expect(page.nextCursor !== undefined, `${orgId} ${role} after ${key} next`).toBe(rest.length > 2);
        }
      }
      expect(maySeeReservation).toBeTypeOf('function');
    }
  });
});
