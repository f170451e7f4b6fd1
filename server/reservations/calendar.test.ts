import { insertNode, insertOrg, insertReservation } from '@/db/factories';
import * as schema from '@/db/schema';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../errors';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG, T0 } from '../testing/scene';
import { listReservationCalendar } from './calendar';
import type { ReservationCalendarInput } from './schemas';

/**
 * The fleet calendar (docs/product.md §5.8 "Fleet calendar", §2 visibility). The scene's n1 (owner
 * org_owner) holds r1 (h-24 … h+24, audience org_audience, managed by org_managing, gpu-0 … gpu-3
 * released); added here: n2 (org_acme) with r2 for org_tenant_b (active), r3 pending ahead, r4
 * cancelled, r5 ended before the window, and n3 with nothing.
 */
describe('listReservationCalendar', () => {
  const scene = useFreshScene();
  const db = () => scene().db;
  const week = { from: hours(-72), to: hours(96) };
  const bars = async (org: string, input: Partial<ReservationCalendarInput> = {}) => {
    const page = await listReservationCalendar({ ctx: ctxFor(db(), org), input: { ...week, ...input } });
    return Object.fromEntries(page.items.map((n) => [n.id, n.reservations.map((r) => `${r.id}:${r.status}`)]));
  };
  const refusal = (input: ReservationCalendarInput) =>
    listReservationCalendar({ ctx: ctxFor(db(), ORG.owner), input }).then(
      () => {
        throw new Error('expected a refusal');
      },
      (e: unknown) => e as DomainError,
    );

  async function addFleet() {
    await insertOrg(db(), { id: 'org_acme', name: 'Acme Compute' });
    await insertNode(db(), { id: 'n2', name: 'zeta rack', ownerOrgId: 'org_acme' });
    await insertNode(db(), { id: 'n3', name: 'alpha spare', ownerOrgId: ORG.owner });
    const on2 = { nodeId: 'n2', allowedOrgIds: [ORG.tenantB] };
    await insertReservation(db(), { ...on2, id: 'r2', unitIds: ['gpu-0', 'gpu-1'], startsAt: hours(-10), endsAt: hours(10) });
    await insertReservation(db(), { ...on2, id: 'r3', unitIds: ['gpu-2'], startsAt: hours(30), endsAt: hours(50), managingOrgIds: [ORG.managing] });
    await insertReservation(db(), { ...on2, id: 'r4', unitIds: ['gpu-3'], startsAt: hours(-5), endsAt: hours(5), cancelledAt: hours(-4) });
    await insertReservation(db(), { ...on2, id: 'r5', unitIds: ['gpu-4'], startsAt: hours(-200), endsAt: hours(-100) });
  }

  it('shows each persona the reservations it may see (§2), on every node, never cancelled ones', async () => {
    await addFleet();
    // The operator: all of them (r4 cancelled and r5 outside the window are no bars).
    expect(await bars(ORG.platform)).toEqual({ n1: ['r1:active'], n2: ['r2:active', 'r3:pending'], n3: [] });
    // The owner of n1 and n3: its nodes' reservations; n2 is listed (every node shows) without bars.
    expect(await bars(ORG.owner)).toEqual({ n1: ['r1:active'], n2: [], n3: [] });
    // The managing org: r1, and r3 it manages.
    expect(await bars(ORG.managing)).toEqual({ n1: ['r1:active'], n2: ['r3:pending'], n3: [] });
    // The audience orgs: their own capacity.
    expect(await bars(ORG.audience)).toEqual({ n1: ['r1:active'], n2: [], n3: [] });
    expect(await bars(ORG.tenantB)).toEqual({ n1: [], n2: ['r2:active', 'r3:pending'], n3: [] });
    // A spot-only tenant: no reservation at all.
    expect(await bars(ORG.tenantA)).toEqual({ n1: [], n2: [], n3: [] });
  });

  it('gives each bar its period, units, audience with names and released spans', async () => {
    await insertOrg(db(), { id: 'org_acme', name: 'Acme Compute' });
    const page = await listReservationCalendar({ ctx: ctxFor(db(), ORG.managing), input: week });
    expect(page).toMatchObject({ from: week.from.toISOString(), to: week.to.toISOString(), total: 1, totalCapped: false });
    const [n1] = page.items;
    expect(n1).toMatchObject({ id: 'n1', ownerOrgId: ORG.owner });
    expect(n1!.reservations).toEqual([
      {
        id: 'r1',
        status: 'active',
        units: 6,
        startsAt: hours(-24).toISOString(),
        endsAt: hours(24).toISOString(),
        audience: [{ id: ORG.audience, name: expect.any(String) }],
        managingOrgIds: [ORG.managing],
        released: [{ startsAt: hours(-24).toISOString(), endsAt: hours(24).toISOString(), units: 4 }],
      },
    ]);
  });

  it('meets the window half-open, and shows ended reservations that fall in it', async () => {
    await addFleet();
    // r5 ended at h-100: a window ending there misses it, one a millisecond longer shows it, expired.
    const at = (from: number, to: number) => ({ from: hours(from), to: hours(to) });
    expect((await bars(ORG.platform, at(-300, -200)))['n2']).toEqual([]);
    expect((await bars(ORG.platform, at(-250, -199.99)))['n2']).toEqual(['r5:expired']);
    expect((await bars(ORG.platform, at(-100, -90)))['n2']).toEqual([]);
  });

  it('takes the fleet filters, sort and node paging', async () => {
    await addFleet();
    expect(Object.keys(await bars(ORG.platform, { owner: 'acme' }))).toEqual(['n2']);
    expect(Object.keys(await bars(ORG.platform, { q: 'spare' }))).toEqual(['n3']);
    expect(Object.keys(await bars(ORG.tenantB, { relation: 'uses' }))).toEqual(['n2']);
    expect(Object.keys(await bars(ORG.managing, { relation: 'manages' }))).toEqual(['n1', 'n2']);
    expect(Object.keys(await bars(ORG.platform, { sort: 'name', order: 'desc' }))).toEqual(['n2', 'n1', 'n3']);
    const first = await listReservationCalendar({ ctx: ctxFor(db(), ORG.platform), input: { ...week, limit: 2 } });
    expect(first.items.map((n) => n.id)).toEqual(['n1', 'n2']);
    expect(first).toMatchObject({ total: 3, totalCapped: false });
    const second = await listReservationCalendar({ ctx: ctxFor(db(), ORG.platform), input: { ...week, limit: 2, cursor: first.nextCursor } });
    expect(second.items.map((n) => n.id)).toEqual(['n3']);
    expect(second.nextCursor).toBeUndefined();
  });

  it('refuses an empty, reversed or longer than 31 days window, naming `to` (400)', async () => {
    for (const to of [hours(0), hours(-1), new Date(T0.getTime() + 31 * 86_400_000 + 1)]) {
      const e = await refusal({ from: T0, to });
      expect(e.code).toBe('invalid_request');
      expect(e.extras?.errors?.[0]?.path).toBe('query.to');
    }
    // No window: the week from now.
    const week = await listReservationCalendar({ ctx: ctxFor(db(), ORG.owner), input: {} });
    expect({ from: week.from, to: week.to }).toEqual({ from: T0.toISOString(), to: hours(7 * 24).toISOString() });
    // Exactly 31 days is allowed.
    await expect(
      listReservationCalendar({ ctx: ctxFor(db(), ORG.owner), input: { from: T0, to: new Date(T0.getTime() + 31 * 86_400_000) } }),
    ).resolves.toBeDefined();
  });

  it('reads a page in three statements, however many nodes and reservations it shows', async () => {
    await addFleet();
    for (let i = 0; i < 20; i++) {
      await insertNode(db(), { id: `m${String(i).padStart(2, '0')}`, ownerOrgId: ORG.owner });
      await insertReservation(db(), {
        id: `rm${i}`,
        nodeId: `m${String(i).padStart(2, '0')}`,
        unitIds: ['gpu-0'],
        allowedOrgIds: [ORG.audience],
        startsAt: hours(-1),
        endsAt: hours(1),
      });
    }
    for (const org of [ORG.platform, ORG.audience]) {
      const sent: string[] = [];
      const client = postgres(scene().url, { max: 1, onnotice: () => {}, debug: (_conn, query) => sent.push(query), connection: { TimeZone: 'UTC' } });
      try {
        const page = await listReservationCalendar({ ctx: ctxFor(drizzle(client, { schema }), org), input: { ...week, limit: 20 } });
        expect(page.items).toHaveLength(20);
        expect(page.items.flatMap((n) => n.reservations).length).toBeGreaterThanOrEqual(18);
        expect(sent.filter((q) => !q.includes('pg_catalog.pg_type'))).toHaveLength(3);
      } finally {
        await client.end();
      }
    }
  });
});
