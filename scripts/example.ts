/**
 * A walk through the whole reservation lifecycle using only the public REST API, through the
 * TypeScript SDK (clients/typescript), and the demo keys: register a node, reserve it, release
 * part, fill it with spot VMs, plan a reclaim by count, preview one, see it refused (a typed 409)
 * when a spot VM lands on its units meanwhile, confirm the new set, change the topology, shrink
 * and re-affirm, cancel. Prints each step.
 *
 *   npx tsx scripts/example.ts [baseUrl]        (default http://localhost:3000)
 *   env DEMO_KEYS_FILE (default .data/demo-keys.json)
 */
import fs from 'node:fs';
import { createGpuReservationsClient, isDryRun, isProblem, unwrap, type GpuReservationsClient } from '../clients/typescript/src';

const base = (process.argv[2] ?? process.env.EXAMPLE_BASE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const keys = JSON.parse(fs.readFileSync(process.env.DEMO_KEYS_FILE ?? '.data/demo-keys.json', 'utf8')) as Record<string, string>;
/** One SDK client per demo org: it adds the Idempotency-Key to every mutation and retries safely. */
function as(org: string): GpuReservationsClient {
  const apiKey = keys[org];
  if (!apiKey) throw new Error(`no demo key for ${org} in the keys file`);
  return createGpuReservationsClient({ baseUrl: base, apiKey });
}
const operator = as('org_platform');
const owner = as('org_acme');
const manager = as('org_helix');
const audience = as('org_nimbus');
const tenantA = as('org_orbit');
const tenantB = as('org_quark');

let step = 0;

function show(title: string, lines: Record<string, unknown>) {
  step += 1;
  console.log(`\n${step}. ${title}`);
  for (const [k, v] of Object.entries(lines)) console.log(`   ${k.padEnd(18)} ${Array.isArray(v) ? v.join(', ') || '—' : String(v)}`);
}

const states = (node: { units: { id: string; state: string }[] }) => node.units.map((u) => `${u.id}=${u.state}`);
const getNode = async (nodeId: string) => unwrap(await owner.api.GET('/v1/nodes/{nodeId}', { params: { path: { nodeId } } }));

const nodeId = `example-${Date.now().toString(36)}`;
const units = Array.from({ length: 8 }, (_, i) => ({ id: `gpu-${i}`, model: 'H100-SXM5', memoryGiB: 80, nvlinkDomain: `nvl-${Math.floor(i / 4)}` }));

const node = unwrap(await operator.api.POST('/v1/nodes', { body: { id: nodeId, name: `Example node ${nodeId}`, ownerOrgId: 'org_acme', units } }));
show('Operator registers a node for Acme', { node: node.id, topologyGen: node.topologyGen, units: states(node) });

const r = unwrap(
  await owner.api.POST('/v1/nodes/{nodeId}/reservations', {
    params: { path: { nodeId } },
    body: {
      reservedUnitIds: units.slice(0, 6).map((u) => u.id),
      allowedOrgIds: ['org_nimbus'],
      managingOrgIds: ['org_helix'],
      contractRef: 'EXAMPLE-1',
      reason: 'Nimbus training run',
    },
  }),
);
const path = { nodeId, id: r.id };
show('Acme reserves gpu-0…gpu-5 for Nimbus, managed by Helix', { reservation: r.id, status: r.status, reservedUnitIds: r.reservedUnitIds });

const released = unwrap(
  await manager.api.POST('/v1/nodes/{nodeId}/reservations/{id}/release', {
    params: { path },
    body: { unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'], reason: 'idle overnight' },
  }),
);
show('Helix releases gpu-0…gpu-3 to the spot market', { releasedUnitIds: released.releasedUnitIds });

const vmA = unwrap(await tenantA.api.POST('/v1/vms', { body: { nodeId, unitIds: ['gpu-0', 'gpu-1'], tier: 'spot' } }));
const vmB = unwrap(await tenantB.api.POST('/v1/vms', { body: { nodeId, unitIds: ['gpu-2'], tier: 'spot' } }));
const vmC = unwrap(await tenantB.api.POST('/v1/vms', { body: { nodeId, unitIds: ['gpu-6'], tier: 'spot' } }));
const vmR = unwrap(await audience.api.POST('/v1/vms', { body: { nodeId, unitIds: ['gpu-4'], tier: 'reserved', reservationId: r.id } }));
show('Tenants fill the released units with spot VMs; Nimbus runs a reserved VM', {
  'spot (Orbit)': `${vmA.id} on gpu-0, gpu-1`,
  'spot (Quark)': `${vmB.id} on gpu-2`,
  'spot, free unit': `${vmC.id} on gpu-6`,
  reserved: `${vmR.id} on gpu-4`,
  units: states(await getNode(nodeId)),
});

const plan = unwrap(await manager.api.POST('/v1/nodes/{nodeId}/reservations/{id}/reclaim-plan', { params: { path }, body: { count: 3 } }));
show('Helix asks for 3 GPUs back: the plan with the fewest evictions (nothing changes)', {
  unitIds: plan.unitIds,
  wouldTerminate: plan.wouldTerminate,
});

const reclaimUnits = ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4'];
const preview = unwrap(
  await manager.api.POST('/v1/nodes/{nodeId}/reservations/{id}/reclaim', { params: { path }, body: { unitIds: reclaimUnits, dryRun: true } }),
);
if (!isDryRun(preview)) throw new Error('a dry run answered as a reclaim');
show('Helix previews a reclaim of gpu-0…gpu-4 (dry run: nothing changes)', { wouldTerminate: preview.wouldTerminate, wouldSkip: preview.wouldSkip });

// Meanwhile a spot VM lands on gpu-3, released and idle when Helix looked.
const vmD = unwrap(await tenantB.api.POST('/v1/vms', { body: { nodeId, unitIds: ['gpu-3'], tier: 'spot' } }));
const { error: drift } = await manager.api.POST('/v1/nodes/{nodeId}/reservations/{id}/reclaim', {
  params: { path },
  body: { unitIds: reclaimUnits, reason: 'Nimbus needs its GPUs back', expectedTerminate: preview.wouldTerminate },
});
if (!isProblem(drift, 'eviction_set_changed')) throw new Error(`expected 409 eviction_set_changed, got ${JSON.stringify(drift)}`);
show('Quark places a spot VM on gpu-3; confirming the old preview is refused, nothing changes', {
  placed: `${vmD.id} on gpu-3`,
  answer: `${drift.status} ${drift.code}`,
  'terminate now': drift.terminate,
});

const done = unwrap(
  await manager.api.POST('/v1/nodes/{nodeId}/reservations/{id}/reclaim', {
    params: { path },
    body: { unitIds: reclaimUnits, reason: 'Nimbus needs its GPUs back', expectedTerminate: drift.terminate },
  }),
);
if (isDryRun(done)) throw new Error('a reclaim answered as a dry run');
const notes = unwrap(await tenantA.api.GET('/v1/notifications', { params: { query: { limit: 1 } } }));
show('Helix confirms the set the 409 named: the reclaim goes through', {
  terminated: done.terminated,
  skipped: done.skipped,
  releasedUnitIds: done.releasedUnitIds,
  'Orbit is told': notes.items[0]?.message ?? '(nothing)',
});

unwrap(await tenantB.api.POST('/v1/vms/{id}/terminate', { params: { path: { id: vmC.id } }, body: {} }));
const topo = unwrap(
  await operator.api.PUT('/v1/nodes/{nodeId}/topology', { params: { path: { nodeId } }, body: { units: units.filter((u) => u.id !== 'gpu-5') } }),
);
const review = unwrap(await owner.api.GET('/v1/nodes/{nodeId}/reservations/{id}', { params: { path } }));
show('Operator removes gpu-5 from the topology: the reservation needs review', { topologyGen: topo.topologyGen, status: review.status, units: states(topo) });

const { error: refused } = await operator.api.POST('/v1/nodes/{nodeId}/reservations/{id}/reaffirm', { params: { path }, body: { reason: 'checked' } });
if (!isProblem(refused, 'unit_missing')) throw new Error(`expected 409 unit_missing, got ${JSON.stringify(refused)}`);
const shrunk = unwrap(
  await owner.api.PATCH('/v1/nodes/{nodeId}/reservations/{id}', {
    params: { path },
    body: { reservedUnitIds: reclaimUnits, reason: 'gpu-5 was decommissioned' },
  }),
);
const affirmed = unwrap(await operator.api.POST('/v1/nodes/{nodeId}/reservations/{id}/reaffirm', { params: { path }, body: { reason: 'new wiring checked' } }));
show('Re-affirm needs the missing unit gone: Acme shrinks, the operator re-affirms', {
  'first reaffirm': `${refused.status} ${refused.code} ${refused.unitIds.join(', ')}`,
  reservedUnitIds: shrunk.reservedUnitIds,
  status: affirmed.status,
  topologyGen: affirmed.topologyGen,
});

const cancelled = unwrap(await owner.api.POST('/v1/nodes/{nodeId}/reservations/{id}/cancel', { params: { path }, body: { reason: 'example finished' } }));
const trail: string[] = [];
for await (const e of owner.paginate('/v1/audit', { query: { reservationId: r.id, limit: 20 } })) trail.push(e.action);
show('Acme cancels; the audit trail tells the story', {
  status: cancelled.status,
  units: states(await getNode(nodeId)),
  audit: trail.reverse(),
});
console.log('\nDone.');
