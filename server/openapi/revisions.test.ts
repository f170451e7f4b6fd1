import { describe, expect, it } from 'vitest';
import { restRoutes } from '../rest/routes';
import { checkVersionBump, classifyChanges } from './changes';
import { projectContract, type ContractProjection } from './contract';
import { buildOpenApiDocument } from './document';
import { listChangelog, listOperationHistory, listRevisions } from './revisions';

const RECLAIM = 'POST /v1/nodes/{nodeId}/reservations/{id}/reclaim';

type Json = Record<string, unknown>;
const clone = (c: ContractProjection): ContractProjection => structuredClone(c);
const reclaimBody = (c: ContractProjection) =>
  ((((c.operations[RECLAIM] as Json).requestBody as Json).content as Json)['application/json'] as Json).schema as { properties: Json; required: string[] };
const applied = (c: ContractProjection) => c.schemas.ReclaimApplied as { properties: Json; required: string[] };

describe('the contract revisions (docs/product.md §5 "Revisions and the changelog")', () => {
  const doc = buildOpenApiDocument(restRoutes);
  const revisions = listRevisions();

  it('the served document is the latest revision, its info.version included (a changed document needs `npx tsx server/openapi/revisions.ts --write`)', () => {
    const latest = revisions.at(-1)!;
    expect(projectContract(doc)).toEqual(latest.contract);
    expect(doc.info.version).toBe(latest.version);
  });

  it('starts with the document issue 27 corrected as revision 1, numbered without gaps', () => {
    expect(revisions[0]).toMatchObject({ revision: 1, version: '1.0.0' });
    revisions.forEach((r, i) => expect(r.revision).toBe(i + 1));
  });

  it('no revision breaks the one before it without a major version bump', () => {
    for (let i = 1; i < revisions.length; i++) {
      const changes = classifyChanges(revisions[i - 1]!.contract, revisions[i]!.contract);
      expect(checkVersionBump(revisions[i - 1]!.version, revisions[i]!.version, changes), `revision ${i + 1}`).toBeUndefined();
    }
  });

  it('the changelog lists every revision newest first, and the reclaim has been there since revision 1', () => {
    expect(listChangelog().map((e) => e.revision)).toEqual(revisions.map((r) => r.revision).reverse());
    expect(listOperationHistory(RECLAIM).since?.revision).toBe(1);
  });
});

describe('classifyChanges, with oasdiff check ids', () => {
  const base = listRevisions()[0]!.contract;

  it('an identical contract has no change', () => {
    expect(classifyChanges(base, clone(base))).toEqual([]);
  });

  it('the published reclaim revision: two optional request properties and optional response properties added, none breaking', () => {
    const before = clone(base);
    delete reclaimBody(before).properties.dryRun;
    delete reclaimBody(before).properties.reason;
    for (const p of ['terminated', 'skipped']) delete applied(before).properties[p];
    const changes = classifyChanges(before, base).filter((c) => c.operation === RECLAIM);
    expect(changes.filter((c) => c.id === 'new-optional-request-property').map((c) => c.where)).toEqual(['dryRun', 'reason']);
    expect(changes.filter((c) => c.id === 'response-optional-property-added').map((c) => c.where)).toEqual(['200 skipped', '200 terminated']);
    expect(changes.every((c) => !c.breaking)).toBe(true);
    expect(checkVersionBump('1.0.0', '1.1.0', changes)).toBeUndefined();
  });

  it('a new required request property, a response property become optional or removed, and a removed operation are breaking', () => {
    const after = clone(base);
    reclaimBody(after).properties.priority = { type: 'integer' };
    reclaimBody(after).required.push('priority');
    applied(after).required = applied(after).required.filter((p) => p !== 'startsAt');
    for (const name of ['ReclaimApplied', 'ReclaimDryRun']) delete (after.schemas[name] as { properties: Json }).properties.contractRef;
    delete after.operations['GET /v1/orgs'];
    const changes = classifyChanges(base, after);
    const ids = (id: string) => changes.filter((c) => c.id === id);
    expect(ids('new-required-request-property')[0]).toMatchObject({ operation: RECLAIM, where: 'priority', breaking: true });
    // Required only where every variant of the answer requires it: the dry run's still does, the real run's no longer.
    expect(ids('response-property-became-optional').map((c) => c.where)).toEqual(['200 startsAt']);
    expect(ids('response-optional-property-removed').map((c) => c.where)).toEqual(['200 contractRef']);
    expect(ids('api-removed-without-deprecation').map((c) => c.operation)).toEqual(['GET /v1/orgs']);
    expect(checkVersionBump('1.0.0', '1.1.0', changes)).toMatch(/major version bump/);
    expect(checkVersionBump('1.0.0', '2.0.0', changes)).toBeUndefined();
  });

  it('a required response property become optional in every variant is response-property-became-optional, breaking', () => {
    const after = clone(base);
    for (const name of ['ReclaimApplied', 'ReclaimDryRun']) {
      const s = after.schemas[name] as { required: string[] };
      s.required = s.required.filter((p) => p !== 'startsAt');
    }
    const changes = classifyChanges(base, after).filter((c) => c.operation === RECLAIM);
    expect(changes).toEqual([expect.objectContaining({ id: 'response-property-became-optional', where: '200 startsAt', breaking: true })]);
  });

  it('tightened limits and removed enum values of a request are breaking; a change no check names is reported as unclassified', () => {
    const after = clone(base);
    (reclaimBody(after).properties.reason as Json).maxLength = 10;
    (applied(after).properties.id as Json).pattern = '^x$';
    const changes = classifyChanges(base, after).filter((c) => c.operation === RECLAIM);
    expect(changes.map((c) => c.id)).toEqual(['request-property-max-length-decreased']);
    const other = clone(base);
    (applied(other).properties.id as Json).pattern = '^x$';
    expect(classifyChanges(base, other).filter((c) => c.operation === RECLAIM)).toEqual([
      expect.objectContaining({ id: 'unclassified-change', breaking: true }),
    ]);
    expect(checkVersionBump('1.0.0', '1.0.0', [])).toMatch(/must increase/);
  });
});
