import type { Db } from '@/db/client';
import { insertNode, insertOrg, insertReservation, insertVm } from '@/db/factories';
import type { Ctx } from '../context';

/** The moment every scene is built around; tests move `now` relative to it. */
export const T0 = new Date('2026-06-01T12:00:00.000Z');
export const hours = (h: number, base: Date = T0) => new Date(base.getTime() + h * 3_600_000);

/** One org per column of docs/product.md §2's table, plus spot tenants. */
export const ORG = {
  platform: 'org_platform',
  owner: 'org_owner',
  managing: 'org_managing',
  audience: 'org_audience',
  tenantA: 'org_tenant_a',
  tenantB: 'org_tenant_b',
  other: 'org_other',
} as const;

/** A verb context for `orgId` acting through an API key, at `now`. */
export function ctxFor(db: Db, orgId: string, now: Date = T0, via: Ctx['via'] = 'api'): Ctx {
  return { orgId, actor: { kind: 'apiKey', apiKeyId: `key_${orgId}` }, via, db, now };
}

/**
 * Node `n1` (gpu-0 … gpu-7, owner org_owner) with active reservation `r1` on gpu-0 … gpu-5
 * for org_audience, managed by org_managing; gpu-0 … gpu-3 released. Running VMs:
 * - `vm-spot-a` spot, org_tenant_a, gpu-0 + gpu-1 (multi-unit)
 * - `vm-spot-b` spot, org_tenant_b, gpu-2
 * - `vm-res` reserved (r1), org_audience, gpu-4
 * - `vm-od` on-demand, org_tenant_b, gpu-7 (outside r1)
 * gpu-3 is released and idle; gpu-5 reserved and idle; gpu-6 free.
 * @param at the scene's present (REST tests pass the real clock: transports read PostgreSQL's).
 */
export async function buildScene(db: Db, at: Date = T0) {
  const h = (n: number) => hours(n, at);
  for (const id of Object.values(ORG)) await insertOrg(db, { id });
  await insertNode(db, { id: 'n1', ownerOrgId: ORG.owner, createdAt: h(-48) });
  await insertReservation(db, {
    id: 'r1',
    nodeId: 'n1',
    unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5'],
    releasedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'],
    allowedOrgIds: [ORG.audience],
    managingOrgIds: [ORG.managing],
    startsAt: h(-24),
    endsAt: h(24),
    contractRef: 'C-1',
  });
  await insertVm(db, { id: 'vm-spot-a', nodeId: 'n1', orgId: ORG.tenantA, tier: 'spot', unitIds: ['gpu-0', 'gpu-1'], startedAt: h(-2) });
  await insertVm(db, { id: 'vm-spot-b', nodeId: 'n1', orgId: ORG.tenantB, tier: 'spot', unitIds: ['gpu-2'], startedAt: h(-1) });
  await insertVm(db, { id: 'vm-res', nodeId: 'n1', orgId: ORG.audience, tier: 'reserved', reservationId: 'r1', unitIds: ['gpu-4'], startedAt: h(-3) });
  await insertVm(db, { id: 'vm-od', nodeId: 'n1', orgId: ORG.tenantB, tier: 'on-demand', unitIds: ['gpu-7'], startedAt: h(-5) });
}
