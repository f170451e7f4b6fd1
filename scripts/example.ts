/**
 * A walk through the whole reservation lifecycle using only the public REST API and the demo
 * keys: register a node, reserve it, release part, fill it with spot VMs, preview and
 * reclaim, change the topology, shrink and re-affirm, cancel. Prints each step.
 *
 *   npx tsx scripts/example.ts [baseUrl]        (default http://localhost:3000)
 *   env DEMO_KEYS_FILE (default .data/demo-keys.json)
 */
import fs from 'node:fs';

const base = (process.argv[2] ?? process.env.EXAMPLE_BASE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const keys = JSON.parse(fs.readFileSync(process.env.DEMO_KEYS_FILE ?? '.data/demo-keys.json', 'utf8')) as Record<string, string>;
const as = {
  operator: 'org_platform',
  owner: 'org_acme',
  manager: 'org_helix',
  audience: 'org_nimbus',
  tenantA: 'org_orbit',
  tenantB: 'org_quark',
} as const;

type Json = Record<string, unknown> & { id?: string };
let step = 0;

async function call(org: string, method: string, path: string, body?: unknown, expected = [200, 201]): Promise<Json> {
  const key = keys[org];
  if (!key) throw new Error(`no demo key for ${org} in the keys file`);
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  if (!expected.includes(res.status)) throw new Error(`${method} ${path} as ${org}: HTTP ${res.status} ${JSON.stringify(json)}`);
  return json;
}

function show(title: string, lines: Record<string, unknown>) {
  step += 1;
  console.log(`\n${step}. ${title}`);
  for (const [k, v] of Object.entries(lines)) console.log(`   ${k.padEnd(18)} ${Array.isArray(v) ? v.join(', ') || '—' : String(v)}`);
}

const states = (node: Json) => (node.units as { id: string; state: string }[]).map((u) => `${u.id}=${u.state}`);

const nodeId = `example-${Date.now().toString(36)}`;
const units = Array.from({ length: 8 }, (_, i) => ({ id: `gpu-${i}`, model: 'H100-SXM5', memoryGiB: 80, nvlinkDomain: `nvl-${Math.floor(i / 4)}` }));

const node = await call(as.operator, 'POST', '/v1/nodes', { id: nodeId, name: `Example node ${nodeId}`, ownerOrgId: as.owner, units });
show('Operator registers a node for Acme', { node: node.id, topologyGen: node.topologyGen, units: states(node) });

const r = await call(as.owner, 'POST', `/v1/nodes/${nodeId}/reservations`, {
  reservedUnitIds: units.slice(0, 6).map((u) => u.id),
  allowedOrgIds: [as.audience],
  managingOrgIds: [as.manager],
  contractRef: 'EXAMPLE-1',
  reason: 'Nimbus training run',
});
const path = `/v1/nodes/${nodeId}/reservations/${r.id}`;
show('Acme reserves gpu-0…gpu-5 for Nimbus, managed by Helix', { reservation: r.id, status: r.status, reservedUnitIds: r.reservedUnitIds });

const released = await call(as.manager, 'POST', `${path}/release`, { unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'], reason: 'idle overnight' });
show('Helix releases gpu-0…gpu-3 to the spot market', { releasedUnitIds: released.releasedUnitIds });

const vmA = await call(as.tenantA, 'POST', '/v1/vms', { nodeId, unitIds: ['gpu-0', 'gpu-1'], tier: 'spot' });
const vmB = await call(as.tenantB, 'POST', '/v1/vms', { nodeId, unitIds: ['gpu-2'], tier: 'spot' });
const vmC = await call(as.tenantB, 'POST', '/v1/vms', { nodeId, unitIds: ['gpu-6'], tier: 'spot' });
const vmR = await call(as.audience, 'POST', '/v1/vms', { nodeId, unitIds: ['gpu-4'], tier: 'reserved', reservationId: r.id });
show('Tenants fill the released units with spot VMs; Nimbus runs a reserved VM', {
  'spot (Orbit)': `${vmA.id} on gpu-0, gpu-1`,
  'spot (Quark)': `${vmB.id} on gpu-2`,
  'spot, free unit': `${vmC.id} on gpu-6`,
  reserved: `${vmR.id} on gpu-4`,
  units: states(await call(as.owner, 'GET', `/v1/nodes/${nodeId}`)),
});

const preview = await call(as.manager, 'POST', `${path}/reclaim`, { unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4'], dryRun: true });
show('Helix previews a reclaim (dry run: nothing changes)', { wouldTerminate: preview.wouldTerminate, wouldSkip: preview.wouldSkip });

const done = await call(as.manager, 'POST', `${path}/reclaim`, {
  unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4'],
  reason: 'Nimbus needs its GPUs back',
  expectedTerminate: preview.wouldTerminate,
});
const notes = await call(as.tenantA, 'GET', '/v1/notifications?limit=1');
show('Helix reclaims with expectedTerminate', {
  terminated: done.terminated,
  skipped: done.skipped,
  releasedUnitIds: done.releasedUnitIds,
  'Orbit is told': (notes.items as { message: string }[])[0]?.message ?? '(nothing)',
});

await call(as.tenantB, 'POST', `/v1/vms/${vmC.id}/terminate`, {});
const topo = await call(as.operator, 'PUT', `/v1/nodes/${nodeId}/topology`, { units: units.filter((u) => u.id !== 'gpu-5') });
const review = await call(as.owner, 'GET', path);
show('Operator removes gpu-5 from the topology: the reservation needs review', { topologyGen: topo.topologyGen, status: review.status, units: states(topo) });

const refused = await call(as.operator, 'POST', `${path}/reaffirm`, { reason: 'checked' }, [409]);
const shrunk = await call(as.owner, 'PATCH', path, { reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4'], reason: 'gpu-5 was decommissioned' });
const affirmed = await call(as.operator, 'POST', `${path}/reaffirm`, { reason: 'new wiring checked' });
show('Re-affirm needs the missing unit gone: Acme shrinks, the operator re-affirms', {
  'first reaffirm': `${refused.status} ${refused.code} ${(refused.unitIds as string[]).join(', ')}`,
  reservedUnitIds: shrunk.reservedUnitIds,
  status: affirmed.status,
  topologyGen: affirmed.topologyGen,
});

const cancelled = await call(as.owner, 'POST', `${path}/cancel`, { reason: 'example finished' });
const trail = await call(as.owner, 'GET', `/v1/audit?reservationId=${r.id}&limit=20`);
show('Acme cancels; the audit trail tells the story', {
  status: cancelled.status,
  units: states(await call(as.owner, 'GET', `/v1/nodes/${nodeId}`)),
  audit: (trail.items as { action: string }[]).map((e) => e.action).reverse(),
});
console.log('\nDone.');
