import { insertNode, insertOrg, insertReservation } from '@/db/factories';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../errors';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG } from '../testing/scene';
import { listNodes, NODE_COUNT_CAP } from './list';
import type { ListNodesInput } from './schemas';

/**
 * The fleet's list (docs/product.md §5 Lists, §6): sorts by stored columns with keyset paging,
 * search, owner by name, the relation / released / needs-review filters and the capped total.
 * The scene's n1 (owner org_owner) has r1: audience org_audience, managed by org_managing, 4 units released.
 */
describe('listNodes: sort, search, filters, totals', () => {
  const scene = useFreshScene();
  const db = () => scene().db;
  const ids = async (input: ListNodesInput, org: string = ORG.tenantA, via: 'api' | 'console' = 'api') =>
    (await listNodes({ ctx: ctxFor(db(), org, undefined, via), input })).items.map((n) => n.id);
  const refusal = (input: ListNodesInput) =>
    listNodes({ ctx: ctxFor(db(), ORG.tenantA), input }).then(
      () => {
        throw new Error('expected a refusal');
      },
      (e: unknown) => e as DomainError,
    );

  async function addFleet() {
    await insertOrg(db(), { id: 'org_acme', name: 'Acme Compute' });
    await insertNode(db(), { id: 'n2', name: 'zeta rack', ownerOrgId: 'org_acme', createdAt: hours(-10) });
    await insertNode(db(), { id: 'n3', name: 'Alpha rack', ownerOrgId: ORG.owner, createdAt: hours(-5) });
    await insertNode(db(), { id: 'n4', name: 'alpha spare', ownerOrgId: 'org_acme', createdAt: hours(-1), topologyGen: 2 });
    // n4: a reservation written against generation 1 (needs-review), its audience org_tenant_b.
    await insertReservation(db(), {
      id: 'r4',
      nodeId: 'n4',
      unitIds: ['gpu-0'],
      allowedOrgIds: [ORG.tenantB],
      startsAt: hours(-2),
      endsAt: hours(2),
      topologyGen: 1,
      releasedUnitIds: ['gpu-0'],
    });
    // n2: a cancelled reservation managed by org_managing counts for nothing.
    await insertReservation(db(), {
      id: 'r2',
      nodeId: 'n2',
      unitIds: ['gpu-0'],
      allowedOrgIds: [ORG.audience],
      managingOrgIds: [ORG.managing],
      startsAt: hours(-2),
      cancelledAt: hours(-1),
    });
  }

  it('sorts by id, name, owner and creation, both ways, paging by keyset with cursors of that sort', async () => {
    await addFleet();
    expect(await ids({})).toEqual(['n1', 'n2', 'n3', 'n4']);
    expect(await ids({ sort: 'id', order: 'desc' })).toEqual(['n4', 'n3', 'n2', 'n1']);
    expect(await ids({ sort: 'owner' })).toEqual(['n2', 'n4', 'n1', 'n3']);
    expect(await ids({ sort: 'createdAt', order: 'desc' })).toEqual(['n4', 'n3', 'n2', 'n1']);
    const byName = await ids({ sort: 'name' });
    expect(await ids({ sort: 'name', order: 'desc' })).toEqual([...byName].reverse());
    for (const input of [{ sort: 'name' }, { sort: 'owner', order: 'desc' }, { sort: 'createdAt' }, { sort: 'id', order: 'desc' }] as ListNodesInput[]) {
      const all = await ids(input);
      const paged: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listNodes({ ctx: ctxFor(db(), ORG.tenantA), input: { ...input, limit: 1, ...(cursor ? { cursor } : {}) } });
        paged.push(...page.items.map((n) => n.id));
        cursor = page.nextCursor;
        expect(page.total).toBe(4);
      } while (cursor);
      expect(paged, JSON.stringify(input)).toEqual(all);
    }
  });

  it('refuses a cursor under a changed sort or naming no node (400, query.cursor)', async () => {
    await addFleet();
    const byId = await listNodes({ ctx: ctxFor(db(), ORG.tenantA), input: { limit: 1 } });
    const byName = await listNodes({ ctx: ctxFor(db(), ORG.tenantA), input: { limit: 1, sort: 'name' } });
    for (const input of [
      { cursor: byId.nextCursor!, sort: 'name' },
      { cursor: byName.nextCursor!, sort: 'name', order: 'desc' },
      { cursor: byName.nextCursor! },
      { cursor: Buffer.from(JSON.stringify({ k: 'name.asc/n404' })).toString('base64url'), sort: 'name' },
    ] as ListNodesInput[]) {
      const err = await refusal(input);
      expect(err.code, JSON.stringify(input)).toBe('invalid_request');
      expect(err.extras.errors).toEqual([{ path: 'query.cursor', message: 'is not a cursor this API returned' }]);
    }
  });

  it('searches by part of the id or name, case-insensitive, wildcards literal', async () => {
    await addFleet();
    expect(await ids({ q: 'ALPHA' })).toEqual(['n3', 'n4']);
    expect(await ids({ q: 'n2' })).toEqual(['n2']);
    expect(await ids({ q: '%' })).toEqual([]);
    expect(await ids({ q: '  rack ' })).toEqual(['n2', 'n3']);
  });

  it('filters the owner by id exactly or by part of its name', async () => {
    await addFleet();
    expect(await ids({ owner: 'acme' })).toEqual(['n2', 'n4']);
    expect(await ids({ owner: 'org_acme' })).toEqual(['n2', 'n4']);
    expect(await ids({ owner: 'org_ac' })).toEqual([]);
    expect(await ids({ ownerOrgId: ORG.owner, q: 'alpha' })).toEqual(['n3']);
  });

  it('filters by relation to the acting org: owns, manages, may use (live reservations only)', async () => {
    await addFleet();
    expect(await ids({ relation: 'owns' }, ORG.owner)).toEqual(['n1', 'n3']);
    expect(await ids({ relation: 'manages' }, ORG.managing)).toEqual(['n1']);
    expect(await ids({ relation: 'uses' }, ORG.audience)).toEqual(['n1']);
    expect(await ids({ relation: 'uses' }, ORG.tenantB)).toEqual(['n4']);
    expect(await ids({ relation: 'manages' }, ORG.tenantA)).toEqual([]);
    // After r1 ends nothing is managed any more.
    const later = await listNodes({ ctx: ctxFor(db(), ORG.managing, hours(48)), input: { relation: 'manages' } });
    expect(later.items).toEqual([]);
  });

  it('shows the console the acting org’s relations to each node; REST callers get no extra read', async () => {
    await addFleet();
    const page = await listNodes({ ctx: ctxFor(db(), ORG.owner, undefined, 'console'), input: {} });
    expect(Object.fromEntries(page.items.map((n) => [n.id, n.relations]))).toEqual({ n1: ['owns'], n2: [], n3: ['owns'], n4: [] });
    const managing = await listNodes({ ctx: ctxFor(db(), ORG.managing, undefined, 'console'), input: {} });
    expect(managing.items.find((n) => n.id === 'n1')?.relations).toEqual(['manages']);
    const audience = await listNodes({ ctx: ctxFor(db(), ORG.audience, undefined, 'console'), input: {} });
    expect(audience.items.find((n) => n.id === 'n1')?.relations).toEqual(['uses']);
    expect(audience.items.find((n) => n.id === 'n2')?.relations).toEqual([]);
  });

  it('filters nodes with released units (not withheld ones) and their complement', async () => {
    await addFleet();
    // n4's released unit belongs to a needs-review reservation: withheld, not released.
    expect(await ids({ hasReleased: 'true' })).toEqual(['n1']);
    expect(await ids({ hasReleased: 'false' })).toEqual(['n2', 'n3', 'n4']);
  });

  it('filters needs-review only by reservations the caller may see', async () => {
    await addFleet();
    for (const org of [ORG.platform, 'org_acme', ORG.tenantB]) expect(await ids({ needsReview: 'true' }, org), org).toEqual(['n4']);
    for (const org of [ORG.tenantA, ORG.audience, ORG.owner]) expect(await ids({ needsReview: 'true' }, org), org).toEqual([]);
    expect(await ids({ needsReview: 'false' }, ORG.tenantA)).toEqual(['n1', 'n2', 'n3', 'n4']);
  });

  it('counts the matches exactly up to the cap, then says more', async () => {
    await addFleet();
    expect(await listNodes({ ctx: ctxFor(db(), ORG.tenantA), input: { q: 'alpha', limit: 1 } })).toMatchObject({ total: 2, totalCapped: false });
    await insertOrg(db(), { id: 'org_big', name: 'Big' });
    await db().execute(
      sql`insert into nodes (id, name, owner_org_id) select 'bulk-' || g, 'bulk ' || g, 'org_big' from generate_series(1, ${NODE_COUNT_CAP}) g`,
    );
    expect(await listNodes({ ctx: ctxFor(db(), ORG.tenantA), input: { owner: 'org_big', limit: 1 } })).toMatchObject({
      total: NODE_COUNT_CAP,
      totalCapped: false,
    });
    expect(await listNodes({ ctx: ctxFor(db(), ORG.tenantA), input: { limit: 1 } })).toMatchObject({ total: NODE_COUNT_CAP, totalCapped: true });
  });
});
