import { insertOrg } from '@/db/factories';
import { describe, expect, it } from 'vitest';
import { type DomainError } from '../errors';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, ORG } from '../testing/scene';
import { searchOrgs } from './search';

describe('searchOrgs (the org picker)', () => {
  const scene = useFreshScene();
  const db = () => scene().db;

  it('finds orgs by part of the name or id, case-insensitive, by name; LIKE wildcards are literal', async () => {
    await insertOrg(db(), { id: 'org_nimbus', name: 'Nimbus AI' });
    await insertOrg(db(), { id: 'org_pct', name: '100% Compute' });
    const owner = ctxFor(db(), ORG.owner);
    expect((await searchOrgs({ ctx: owner, input: { q: 'nimBUS' } })).items).toEqual([{ id: 'org_nimbus', name: 'Nimbus AI' }]);
    expect((await searchOrgs({ ctx: owner, input: { q: 'tenant_' } })).items.map((o) => o.id)).toEqual([ORG.tenantA, ORG.tenantB]);
    expect((await searchOrgs({ ctx: owner, input: { q: '%' } })).items.map((o) => o.id)).toEqual(['org_pct']);
    expect((await searchOrgs({ ctx: owner, input: {} })).items.length).toBeGreaterThanOrEqual(9);
  });

  it('is for those who may create reservations: the operator and node owners', async () => {
    expect((await searchOrgs({ ctx: ctxFor(db(), ORG.platform), input: { q: 'org' } })).items.length).toBeGreaterThan(0);
    for (const org of [ORG.managing, ORG.audience, ORG.tenantA, ORG.other]) {
      const err = await searchOrgs({ ctx: ctxFor(db(), org), input: { q: 'org' } }).catch((e: unknown) => e);
      expect((err as DomainError).code, org).toBe('forbidden');
    }
  });
});
