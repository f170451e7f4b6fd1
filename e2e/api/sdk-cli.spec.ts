import { execFile } from 'node:child_process';
import { expect, test } from '../support/api';
import { createGpuReservationsClient, isDryRun, unwrap } from '../../clients/typescript/src';
import { readState, type E2eState } from '../support/state';

// The SDK and the CLI on it (docs/product.md §5.9) against the running server: the whole reclaim —
// the plan, the preview, the confirmed reclaim with expectedTerminate, and the typed 409 when the
// set drifted — with the documented exit codes. On a node of its own, so that other specs'
// reclaims of the demo fleet do not matter.
let state: E2eState;
const nodeId = `cli-${Date.now().toString(36)}`;
let reservationId: string;

type Run = { code: number; stdout: string; stderr: string };
/** Runs the CLI as a child process with the given org's key (GPU_RESERVATIONS_API_KEY), `input` its stdin. */
function cli(org: string, ...args: string[]): Promise<Run> {
  return cliWithInput('', org, ...args);
}
function cliWithInput(input: string, org: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      'node_modules/.bin/tsx',
      ['clients/typescript/bin/cli.ts', ...args],
      {
        env: {
          ...process.env,
          GPU_RESERVATIONS_API_KEY: state.keys[org] ?? 'no-such-key',
          GPU_RESERVATIONS_BASE_URL: state.baseURL,
          GPU_RESERVATIONS_CONFIG: '/nonexistent/config.json',
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}
const sdk = (org: string) => createGpuReservationsClient({ baseUrl: state.baseURL, apiKey: state.keys[org] ?? '' });

test.beforeAll(async () => {
  state = readState();
  const units = Array.from({ length: 6 }, (_, i) => ({ id: `gpu-${i}`, model: 'H100-SXM5', memoryGiB: 80, nvlinkDomain: 'nvl-0' }));
  unwrap(await sdk('org_platform').api.POST('/v1/nodes', { body: { id: nodeId, name: `CLI ${nodeId}`, ownerOrgId: 'org_acme', units } }));
  const r = unwrap(
    await sdk('org_acme').api.POST('/v1/nodes/{nodeId}/reservations', {
      params: { path: { nodeId } },
      body: { reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4'], allowedOrgIds: ['org_nimbus'], managingOrgIds: ['org_helix'] },
    }),
  );
  reservationId = r.id;
  const path = { nodeId, id: reservationId };
  unwrap(
    await sdk('org_helix').api.POST('/v1/nodes/{nodeId}/reservations/{id}/release', {
      params: { path },
      body: { unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'] },
    }),
  );
  unwrap(await sdk('org_orbit').api.POST('/v1/vms', { body: { nodeId, unitIds: ['gpu-0', 'gpu-1'], tier: 'spot' } }));
  unwrap(await sdk('org_quark').api.POST('/v1/vms', { body: { nodeId, unitIds: ['gpu-2'], tier: 'spot' } }));
});

test('the CLI reads: nodes, reservations, VMs; a wrong key is exit 3, an unknown node exit 4', async () => {
  test.setTimeout(60_000);
  const node = await cli('org_helix', 'nodes', 'get', nodeId, '--json');
  expect(node.code).toBe(0);
  expect((JSON.parse(node.stdout) as { units: unknown[] }).units).toHaveLength(6);
  const table = await cli('org_helix', 'reservations', 'list', '--node', nodeId);
  expect(table.stdout).toMatch(new RegExp(`${reservationId}\\s+${nodeId}\\s+active`));
  const vms = await cli('org_orbit', 'vms', 'list', '--node', nodeId, '--status', 'running', '--json');
  expect((JSON.parse(vms.stdout) as { tier: string }[]).map((v) => v.tier)).toEqual(['spot']);
  expect((await cli('org_nobody', 'nodes', 'list')).code).toBe(3);
  const missing = await cli('org_helix', 'nodes', 'get', 'no-such-node', '--json');
  expect(missing.code).toBe(4);
  expect(JSON.parse(missing.stdout)).toMatchObject({ status: 404, code: 'not_found' });
});

test('the CLI reclaims: plan with --count, dry run, without --yes a question (no: exit 7), drift is exit 5 with the typed problem, then the reclaim', async () => {
  test.setTimeout(90_000);
  const plan = await cli('org_helix', 'reservations', 'reclaim', nodeId, reservationId, '--count', '2', '--dry-run', '--json');
  expect(plan.code).toBe(0);
  // Fewest evictions: the idle gpu-3, and gpu-2, whose one-unit VM loses the fewest GPU-hours.
  const planned = JSON.parse(plan.stdout) as { unitIds: string[]; wouldTerminate: string[] };
  expect(planned.unitIds).toEqual(['gpu-2', 'gpu-3']);
  expect(planned.wouldTerminate).toHaveLength(1);

  const units = '--units=gpu-0,gpu-1,gpu-2,gpu-3';
  const dry = await cli('org_helix', 'reclaim', nodeId, reservationId, units, '--dry-run', '--json');
  expect(dry.code).toBe(0);
  const preview = JSON.parse(dry.stdout) as { wouldTerminate: string[]; wouldSkip: string[] };
  expect(preview.wouldTerminate).toHaveLength(2);

  // Without --yes the preview is shown and confirmation asked: no, or no answer, and nothing happens.
  const declined = await cliWithInput('n\n', 'org_helix', 'reclaim', nodeId, reservationId, units);
  expect(declined.code).toBe(7);
  expect(declined.stdout).toContain('would terminate');
  expect(declined.stderr).toContain('Terminate 2 spot VMs and reclaim 4 units? [y/N]');
  expect(declined.stderr).toContain('Declined: nothing changed.');
  // No stdin at all: declined too, saying how to confirm without a prompt.
  const unanswered = await cli('org_helix', 'reclaim', nodeId, reservationId, units);
  expect(unanswered.code).toBe(7);
  expect(unanswered.stderr).toContain('Pass --yes to confirm without a prompt.');

  // Another spot VM lands on gpu-3 after the preview: the reclaim of the previewed set is refused.
  const late = unwrap(await sdk('org_zephyr').api.POST('/v1/vms', { body: { nodeId, unitIds: ['gpu-3'], tier: 'spot' } }));
  const drift = await cli('org_helix', 'reclaim', nodeId, reservationId, units, '--yes', `--expect=${preview.wouldTerminate.join(',')}`, '--json');
  expect(drift.code).toBe(5);
  expect(JSON.parse(drift.stdout)).toMatchObject({ status: 409, code: 'eviction_set_changed', terminate: [...preview.wouldTerminate, late.id].sort() });
  const still = unwrap(await sdk('org_helix').api.GET('/v1/nodes/{nodeId}/reservations/{id}', { params: { path: { nodeId, id: reservationId } } }));
  expect(still.releasedUnitIds).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);

  // Confirmed with --yes: the CLI previews afresh and reclaims exactly that set.
  const done = await cli('org_helix', 'reservations', 'reclaim', nodeId, reservationId, units, '--yes', '--reason', 'CLI e2e', '--json');
  expect(done.code).toBe(0);
  expect(JSON.parse(done.stdout)).toMatchObject({ releasedUnitIds: [], terminated: [...preview.wouldTerminate, late.id].sort(), skipped: [] });

  // The SDK sees it too: the reservation, the audit trail, the evicted tenant's feed.
  const dryAgain = unwrap(
    await sdk('org_helix').api.POST('/v1/nodes/{nodeId}/reservations/{id}/reclaim', {
      params: { path: { nodeId, id: reservationId } },
      body: { unitIds: ['gpu-0'], dryRun: true },
    }),
  );
  expect(isDryRun(dryAgain) && dryAgain.wouldTerminate).toEqual([]);
  const audit = await cli('org_helix', 'audit', '--reservation', reservationId, '--json');
  expect((JSON.parse(audit.stdout) as { action: string; reason?: string }[])[0]).toMatchObject({ action: 'reservation.reclaim', reason: 'CLI e2e' });
  const feed = await cli('org_zephyr', 'events', 'tail', '--types', 'vm.reclaimed', '--no-follow', '--json');
  expect(feed.code).toBe(0);
  const reclaimed = feed.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; data: { vmId?: string } });
  expect(reclaimed.some((e) => e.type === 'vm.reclaimed' && JSON.stringify(e.data).includes(late.id))).toBe(true);
});
