/**
 * The demo fleet (docs/product.md §7): orgs, users, nodes of 8 units, reservations in every status,
 * released units, spot and reserved VMs, and one dev API key per org. Node `acme-h100-01`
 * shows every unit state of docs/product.md §3; `acme-h100-02` is the reclaim showcase (4 spot VMs).
 * Times are relative to `now` so the demo looks the same whenever it is seeded.
 */
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from './client';
import type { MembershipRole } from './schema';
import { gpuUnits, insertNode, insertOrg, insertReservation, insertUser, insertVm } from './factories';

export const DEMO_PASSWORD = 'demo-password';

export const DEMO_ORGS = [
  { id: 'org_platform', name: 'Platform Operations' },
  { id: 'org_acme', name: 'Acme Compute' },
  { id: 'org_borealis', name: 'Borealis Cloud' },
  { id: 'org_helix', name: 'Helix Capacity Partners' },
  { id: 'org_nimbus', name: 'Nimbus AI' },
  { id: 'org_orbit', name: 'Orbit Labs' },
  { id: 'org_quark', name: 'Quark Research' },
  { id: 'org_zephyr', name: 'Zephyr Studio' },
] as const;

/** Demo sign-ins (all with DEMO_PASSWORD), listed in the README. */
export const DEMO_USERS = [
  { id: 'user_olivia', email: 'olivia@platform.example', name: 'Olivia Operator', orgIds: ['org_platform'], role: 'platform operator' },
  { id: 'user_alice', email: 'alice@acme.example', name: 'Alice Owner', orgIds: ['org_acme'], role: 'node owner (Acme)' },
  { id: 'user_mark', email: 'mark@helix.example', name: 'Mark Manager', orgIds: ['org_helix'], role: 'managing org of the Nimbus reservations' },
  { id: 'user_ana', email: 'ana@nimbus.example', name: 'Ana Audience', orgIds: ['org_nimbus'], role: 'audience (may not reclaim)' },
  { id: 'user_tom', email: 'tom@orbit.example', name: 'Tom Tenant', orgIds: ['org_orbit'], role: 'spot tenant' },
  {
    id: 'user_sam',
    email: 'sam@helix.example',
    name: 'Sam Switcher',
    orgIds: ['org_helix', 'org_nimbus', 'org_zephyr'],
    role: 'member of three orgs (org switcher)',
  },
  {
    id: 'user_vera',
    email: 'vera@helix.example',
    name: 'Vera Viewer',
    orgIds: ['org_helix'],
    role: 'viewer of Helix (sees, takes no action)',
    membershipRole: 'viewer',
  },
] as const satisfies readonly { id: string; email: string; name: string; orgIds: readonly string[]; role: string; membershipRole?: MembershipRole }[];

/** True when no org exists yet (the dev command seeds only then). */
export async function isEmpty(db: Db): Promise<boolean> {
  const rows = await db.execute<{ n: number }>(sql`select count(*)::int as n from orgs`);
  return (rows[0]?.n ?? 0) === 0;
}

/**
 * What the seed needs from the domain, handed in so that db/ imports nothing from server/:
 * the hash of DEMO_PASSWORD, and a way to issue an API key (random, stored hashed).
 */
export type SeedCredentials = {
  passwordHash: string;
  issueApiKey: (tx: DbOrTx, input: { orgId: string; name: string; now: Date }) => Promise<{ secret: string }>;
};

/**
 * Writes the demo fleet into an empty database (server/demo.ts supplies the credentials).
 * @returns the dev API key of every demo org, `{ orgId: secret }`.
 */
export async function seedDemo(db: Db, now: Date, credentials: SeedCredentials): Promise<Record<string, string>> {
  const at = (hours: number) => new Date(now.getTime() + hours * 3_600_000);
  const day = 24;
  const { passwordHash, issueApiKey } = credentials;

  return db.transaction(async (tx) => {
    for (const o of DEMO_ORGS) await insertOrg(tx, o);
    for (const u of DEMO_USERS)
      await insertUser(tx, {
        id: u.id,
        email: u.email,
        name: u.name,
        passwordHash,
        orgIds: [...u.orgIds],
        ...('membershipRole' in u ? { membershipRole: u.membershipRole } : {}),
      });

    // acme-h100-01: every unit state of docs/product.md §3, at topologyGen 2.
    await insertNode(tx, { id: 'acme-h100-01', name: 'Acme H100 #01 (fra-1)', ownerOrgId: 'org_acme', topologyGen: 2, createdAt: at(-60 * day) });
    await insertReservation(tx, {
      id: 'res-nimbus-01',
      nodeId: 'acme-h100-01',
      unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4'],
      releasedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2'],
      releasedAt: at(-2 * day),
      allowedOrgIds: ['org_nimbus'],
      managingOrgIds: ['org_helix'],
      contractRef: 'MSA-2026-017',
      startsAt: at(-7 * day),
      endsAt: at(30 * day),
      topologyGen: 2,
      reason: 'Q4 training capacity',
    });
    await insertReservation(tx, {
      id: 'res-nimbus-01-review',
      nodeId: 'acme-h100-01',
      unitIds: ['gpu-6'],
      allowedOrgIds: ['org_nimbus'],
      managingOrgIds: ['org_helix'],
      startsAt: at(-10 * day),
      topologyGen: 1,
      reason: 'Inference pool',
    });
    await insertReservation(tx, {
      id: 'res-zephyr-01-pending',
      nodeId: 'acme-h100-01',
      unitIds: ['gpu-7'],
      allowedOrgIds: ['org_zephyr'],
      startsAt: at(3 * day),
      endsAt: at(10 * day),
      topologyGen: 2,
    });
    await insertReservation(tx, {
      id: 'res-quark-01-expired',
      nodeId: 'acme-h100-01',
      unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'],
      allowedOrgIds: ['org_quark'],
      startsAt: at(-40 * day),
      endsAt: at(-8 * day),
    });
    await insertReservation(tx, {
      id: 'res-orbit-01-cancelled',
      nodeId: 'acme-h100-01',
      unitIds: ['gpu-5', 'gpu-6', 'gpu-7'],
      allowedOrgIds: ['org_orbit'],
      startsAt: at(-5 * day),
      endsAt: at(20 * day),
      cancelledAt: at(-6 * day),
      createdAt: at(-9 * day),
      reason: 'Customer withdrew',
    });
    await insertVm(tx, { id: 'vm-orbit-train-01', nodeId: 'acme-h100-01', orgId: 'org_orbit', tier: 'spot', unitIds: ['gpu-0', 'gpu-1'], startedAt: at(-5) });
    await insertVm(tx, {
      id: 'vm-nimbus-infer-01',
      nodeId: 'acme-h100-01',
      orgId: 'org_nimbus',
      tier: 'reserved',
      reservationId: 'res-nimbus-01',
      unitIds: ['gpu-3'],
      startedAt: at(-50),
    });
    await insertVm(tx, { id: 'vm-quark-batch-01', nodeId: 'acme-h100-01', orgId: 'org_quark', tier: 'on-demand', unitIds: ['gpu-5'], startedAt: at(-20) });
    await insertVm(tx, {
      id: 'vm-orbit-old-01',
      nodeId: 'acme-h100-01',
      orgId: 'org_orbit',
      tier: 'spot',
      unitIds: ['gpu-2'],
      startedAt: at(-30),
      terminatedAt: at(-26),
    });

    // acme-h100-02: the reclaim showcase — 4 spot VMs on released units, one reserved VM.
    await insertNode(tx, { id: 'acme-h100-02', name: 'Acme H100 #02 (fra-1)', ownerOrgId: 'org_acme', createdAt: at(-60 * day) });
    await insertReservation(tx, {
      id: 'res-nimbus-02',
      nodeId: 'acme-h100-02',
      unitIds: gpuUnits().map((u) => u.id),
      releasedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5'],
      allowedOrgIds: ['org_nimbus'],
      managingOrgIds: ['org_helix'],
      contractRef: 'MSA-2026-018',
      startsAt: at(-3 * day),
      endsAt: at(60 * day),
    });
    await insertVm(tx, { id: 'vm-orbit-train-02', nodeId: 'acme-h100-02', orgId: 'org_orbit', tier: 'spot', unitIds: ['gpu-0', 'gpu-1'], startedAt: at(-9) });
    await insertVm(tx, { id: 'vm-quark-sweep-02', nodeId: 'acme-h100-02', orgId: 'org_quark', tier: 'spot', unitIds: ['gpu-2'], startedAt: at(-7) });
    await insertVm(tx, { id: 'vm-orbit-eval-02', nodeId: 'acme-h100-02', orgId: 'org_orbit', tier: 'spot', unitIds: ['gpu-3'], startedAt: at(-4) });
    await insertVm(tx, { id: 'vm-zephyr-render-02', nodeId: 'acme-h100-02', orgId: 'org_zephyr', tier: 'spot', unitIds: ['gpu-4'], startedAt: at(-2) });
    await insertVm(tx, {
      id: 'vm-nimbus-infer-02',
      nodeId: 'acme-h100-02',
      orgId: 'org_nimbus',
      tier: 'reserved',
      reservationId: 'res-nimbus-02',
      unitIds: ['gpu-6'],
      startedAt: at(-30),
    });

    // Borealis: a reservation without managing orgs, and a pending one.
    await insertNode(tx, {
      id: 'borealis-a100-01',
      name: 'Borealis A100 #01 (osl-2)',
      ownerOrgId: 'org_borealis',
      units: gpuUnits(8, 'A100-SXM4'),
      createdAt: at(-90 * day),
    });
    await insertReservation(tx, {
      id: 'res-zephyr-11',
      nodeId: 'borealis-a100-01',
      unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'],
      releasedUnitIds: ['gpu-2', 'gpu-3'],
      allowedOrgIds: ['org_zephyr', 'org_quark'],
      startsAt: at(-2 * day),
      endsAt: at(12 * day),
    });
    await insertVm(tx, {
      id: 'vm-orbit-train-11',
      nodeId: 'borealis-a100-01',
      orgId: 'org_orbit',
      tier: 'spot',
      unitIds: ['gpu-2', 'gpu-3'],
      startedAt: at(-6),
    });
    await insertVm(tx, {
      id: 'vm-zephyr-render-11',
      nodeId: 'borealis-a100-01',
      orgId: 'org_zephyr',
      tier: 'reserved',
      reservationId: 'res-zephyr-11',
      unitIds: ['gpu-0'],
      startedAt: at(-40),
    });
    await insertVm(tx, { id: 'vm-quark-spot-11', nodeId: 'borealis-a100-01', orgId: 'org_quark', tier: 'spot', unitIds: ['gpu-6'], startedAt: at(-1) });
    await insertNode(tx, {
      id: 'borealis-a100-02',
      name: 'Borealis A100 #02 (osl-2)',
      ownerOrgId: 'org_borealis',
      units: gpuUnits(8, 'A100-SXM4'),
      createdAt: at(-90 * day),
    });
    await insertReservation(tx, {
      id: 'res-nimbus-12',
      nodeId: 'borealis-a100-02',
      unitIds: gpuUnits().map((u) => u.id),
      allowedOrgIds: ['org_nimbus'],
      managingOrgIds: ['org_helix'],
      startsAt: at(2 * day),
    });

    // A wider fleet for the fleet page: a mix of idle, reserved and busy nodes.
    for (let i = 3; i <= 14; i++) {
      const id = `acme-h100-${String(i).padStart(2, '0')}`;
      await insertNode(tx, {
        id,
        name: `Acme H100 #${String(i).padStart(2, '0')} (${i % 2 ? 'fra-1' : 'ams-3'})`,
        ownerOrgId: 'org_acme',
        createdAt: at(-30 * day),
      });
      if (i % 3 === 0) {
        await insertReservation(tx, {
          id: `res-nimbus-fleet-${i}`,
          nodeId: id,
          unitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'],
          releasedUnitIds: i % 2 ? ['gpu-2', 'gpu-3'] : [],
          allowedOrgIds: ['org_nimbus'],
          managingOrgIds: ['org_helix'],
          startsAt: at(-day),
          endsAt: at(20 * day),
        });
        if (i % 2) await insertVm(tx, { id: `vm-quark-spot-${i}`, nodeId: id, orgId: 'org_quark', tier: 'spot', unitIds: ['gpu-3'], startedAt: at(-3) });
      }
      if (i % 4 === 1)
        await insertVm(tx, { id: `vm-orbit-od-${i}`, nodeId: id, orgId: 'org_orbit', tier: 'on-demand', unitIds: ['gpu-6', 'gpu-7'], startedAt: at(-12) });
    }

    const keys: Record<string, string> = {};
    for (const o of DEMO_ORGS) keys[o.id] = (await issueApiKey(tx, { orgId: o.id, name: 'demo key', now })).secret;
    return keys;
  });
}
