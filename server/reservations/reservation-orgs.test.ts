/**
 * reservation_orgs (migration 0017): one row per org a reservation names, per list, kept by
 * PostgreSQL's triggers in the statement that writes the reservation — so whatever writes a
 * reservation (a verb, a bulk INSERT … SELECT, the fleet generator), the rows the visibility
 * rules read by org (server/policy.ts) are the arrays', and nothing else.
 */
import { insertNode, insertReservation } from '@/db/factories';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, hours, ORG } from '../testing/scene';
import { release } from './release';
import { updateReservation } from './update';

const scene = useFreshScene();
const db = () => scene().db;

/** Every reservation_orgs row as `role org node/reservation`, sorted. */
async function readRows(): Promise<string[]> {
  const rows = await db().execute<{ row: string }>(
    sql`select role || ' ' || org_id || ' ' || node_id || '/' || reservation_id as row from reservation_orgs order by 1`,
  );
  return [...rows].map((r) => r.row);
}

/** The same, derived from the arrays of every reservation. */
async function readArrays(): Promise<string[]> {
  const rows = await db().execute<{ row: string }>(sql`select row from (
      select 'audience ' || a || ' ' || node_id || '/' || id as row from reservations, unnest(allowed_org_ids) a
      union
      select 'managing ' || m || ' ' || node_id || '/' || id from reservations, unnest(managing_org_ids) m) x
    order by 1`);
  return [...rows].map((r) => r.row);
}

describe('reservation_orgs', () => {
  it('holds the orgs of every reservation, written one by one or many in one statement', async () => {
    expect(await readRows()).toEqual(['audience org_audience n1/r1', 'managing org_managing n1/r1']);
    await insertNode(db(), { id: 'n2', ownerOrgId: ORG.owner, createdAt: hours(-72) });
    await insertReservation(db(), {
      id: 'r2',
      nodeId: 'n2',
      unitIds: ['gpu-0'],
      allowedOrgIds: [ORG.tenantA, ORG.tenantB],
      managingOrgIds: [ORG.tenantA],
      startsAt: hours(-1),
    });
    await db().execute(sql`insert into reservations (id, node_id, allowed_org_ids, managing_org_ids, starts_at, topology_gen, created_at, updated_at)
      select 'b' || i, 'n2', array[${ORG.audience}], array[]::text[], now(), 1, now(), now() from generate_series(1, 3) i`);
    expect(await readRows()).toEqual(await readArrays());
    expect(await readRows()).toContain('managing org_tenant_a n2/r2');
    expect((await readRows()).filter((r) => r.endsWith('n2/b2'))).toEqual(['audience org_audience n2/b2']);
  });

  it('follows a change of either array, and only then', async () => {
    const owner = ctxFor(db(), ORG.owner);
    await updateReservation({ ctx: owner, input: { nodeId: 'n1', reservationId: 'r1', allowedOrgIds: [ORG.tenantA, ORG.audience], managingOrgIds: [] } });
    expect(await readRows()).toEqual(['audience org_audience n1/r1', 'audience org_tenant_a n1/r1']);
    // A write that leaves the arrays alone (release updates the row's updatedAt and reason) leaves the rows alone.
    await db().execute(sql`delete from reservation_orgs where org_id = ${ORG.tenantA}`);
    await release({ ctx: owner, input: { nodeId: 'n1', reservationId: 'r1', unitIds: ['gpu-5'] } });
    expect(await readRows()).toEqual(['audience org_audience n1/r1']);
    await updateReservation({ ctx: owner, input: { nodeId: 'n1', reservationId: 'r1', managingOrgIds: [ORG.managing] } });
    expect(await readRows()).toEqual(await readArrays());
  });

  it('goes with its reservation', async () => {
    await db().execute(sql`insert into reservations (id, node_id, allowed_org_ids, managing_org_ids, starts_at, topology_gen, created_at, updated_at)
      values ('gone', 'n1', array[${ORG.tenantB}], array[${ORG.tenantB}], now(), 1, now(), now())`);
    expect(await readRows()).toContain('managing org_tenant_b n1/gone');
    await db().execute(sql`delete from reservations where id = 'gone'`);
    expect(await readRows()).toEqual(['audience org_audience n1/r1', 'managing org_managing n1/r1']);
  });
});
