/**
 * The demo's story (issue 24 point 5), one entry per step: who acts, what they do, what comes of
 * it, how it is played (the console as that persona, the REST API where the story says so) and
 * the element that shows the outcome, which the run asserts — so a step that stops working fails
 * `npm test` instead of quietly filming an error. Adding a step is one more entry in `STORY`.
 * Everything the story needs is made through the product, on a freshly seeded fleet (db/seed.ts):
 * nothing is written to the database directly.
 */
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/** The people of the story: one browser context each, signed in with its demo account (README "Demo data"). */
export const PERSONAS = {
  owner: { email: 'alice@acme.example', label: 'Alice · Acme Compute (node owner)', theme: 'light' },
  manager: { email: 'mark@helix.example', label: 'Mark · Helix Capacity Partners (managing org)', theme: 'light' },
  tenant: { email: 'tom@orbit.example', label: 'Tom · Orbit Labs (spot tenant)', theme: 'light' },
  // The operator works in the dark theme, so the film shows both (the captions follow the theme).
  operator: { email: 'olivia@platform.example', label: 'Olivia · Platform Operations (operator)', theme: 'dark' },
} as const;

export type PersonaKey = keyof typeof PERSONAS;

/** What every step may use: the personas' pages, the API as any demo org, and what earlier steps learnt. */
export type Stage = {
  pages: Record<PersonaKey, Page>;
  /** A REST call as a demo org with its seeded API key; fails the step on another status. */
  api: <T = Record<string, unknown>>(orgId: string, method: 'get' | 'post', path: string, body?: unknown, status?: number) => Promise<T>;
  /** Ids made along the way (the reservation, the VMs), by name. */
  memo: Record<string, string>;
};

export type Step = {
  /** File-name part of its screenshot: `step-03-<slug>.png`. */
  slug: string;
  /** Whose page the step plays in and films (the caption names `who` when others act, e.g. over the API). */
  persona: PersonaKey;
  who?: string;
  action: string;
  outcome: (memo: Stage['memo']) => string;
  play: (stage: Stage) => Promise<void>;
  /** The element that shows the outcome on the persona's page: asserted visible, scrolled into view, filmed. */
  shows: (stage: Stage) => Locator;
};

export const NODE = 'acme-h100-04';
const NODE_PATH = `/nodes/${NODE}`;
const CONTRACT = 'MSA-DEMO-24';
const HOUR = 3_600_000;

const unit = (page: Page, id: string) => page.locator(`[data-unit-id="${id}"]`).first();

/** Click the first unit, shift-click the last: the range between them is selected. */
async function selectRange(page: Page, first: string, last: string) {
  await unit(page, first).click();
  await unit(page, last).click({ modifiers: ['Shift'] });
}

async function pickOrg(page: Page, group: RegExp, search: string, name: string) {
  const box = page.getByRole('dialog').getByRole('group', { name: group });
  await box.getByLabel(/Search orgs/).fill(search);
  await box.getByRole('option', { name: `Add ${name}` }).click();
}

/** Close an open dialog's result, if any (a step's picture keeps it open until the next step). */
async function closeDialog(page: Page) {
  const dialog = page.getByRole('dialog');
  if (await dialog.isVisible()) {
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  }
}

/** A spot VM placed over the API by a tenant's scheduler, as programs do (docs/product.md §5.3). */
async function placeSpot(stage: Stage, orgId: string, unitIds: string[]): Promise<string> {
  const vm = await stage.api<{ id: string }>(orgId, 'post', '/v1/vms', { nodeId: NODE, unitIds, tier: 'spot' }, 201);
  return vm.id;
}

/** `at`, to the minute, as a datetime-local value in UTC (the console reads it in UTC by default). */
const utcInput = (at: Date) => at.toISOString().slice(0, 16);

const reservationCard = (stage: Stage, persona: PersonaKey) => stage.pages[persona].locator(`[data-reservation-id="${stage.memo.reservation}"]`);

export const STORY: readonly Step[] = [
  {
    slug: 'owner-reserves',
    persona: 'owner',
    action: `Selects the eight free units of ${NODE} and reserves them for Nimbus AI, managed by Helix Capacity Partners (Reserve…).`,
    outcome: () => `The reservation (${CONTRACT}) is active: Nimbus may run VMs on the units, Helix may release and reclaim them.`,
    async play({ pages: { owner }, memo }) {
      await owner.goto(NODE_PATH);
      await selectRange(owner, 'gpu-0', 'gpu-7');
      await owner.getByRole('button', { name: 'Reserve…' }).click();
      const dialog = owner.getByRole('dialog', { name: `Reserve 8 units of ${NODE}` });
      await pickOrg(owner, /Audience/, 'Nimbus', 'Nimbus AI');
      await pickOrg(owner, /Managing orgs/, 'Helix', 'Helix Capacity Partners');
      await dialog.getByLabel('Contract reference').fill(CONTRACT);
      await dialog.getByRole('button', { name: 'Reserve 8 units' }).click();
      await expect(dialog).toBeHidden();
      const card = owner.locator('[data-reservation-id]').filter({ hasText: CONTRACT });
      memo.reservation = (await card.getAttribute('data-reservation-id')) ?? '';
      for (const id of ['gpu-0', 'gpu-7']) await expect(unit(owner, id)).toHaveAttribute('data-state', 'reserved');
    },
    shows: (stage) => reservationCard(stage, 'owner'),
  },
  {
    slug: 'manager-releases',
    persona: 'manager',
    action: 'Selects the six units Nimbus does not use (gpu-2…gpu-7), previews the release and confirms it (Release…).',
    outcome: () => 'gpu-2…gpu-7 are on the spot market; gpu-0 and gpu-1 stay reserved for Nimbus.',
    async play({ pages: { manager } }) {
      await manager.goto(NODE_PATH);
      await selectRange(manager, 'gpu-2', 'gpu-7');
      await manager.getByRole('button', { name: 'Release…' }).click();
      const dialog = manager.getByRole('dialog');
      await expect(dialog.getByTestId('release-preview')).toContainText('gpu-2');
      await dialog.getByRole('button', { name: 'Release 6 units to the spot market' }).click();
    },
    shows: ({ pages }) => pages.manager.getByRole('dialog').getByTestId('release-summary'),
  },
  {
    slug: 'spot-buyers-fill',
    persona: 'tenant',
    who: 'Spot buyers Orbit Labs, Quark Research, Zephyr Studio — their schedulers, over the REST API',
    action: 'POST /v1/vms with tier "spot" and their API keys: Orbit on gpu-6, Quark on gpu-7, Orbit on gpu-2 + gpu-3, Zephyr on gpu-4.',
    outcome: () => 'Four spot VMs run on the released units (dark green); gpu-5 is still for sale. Tom sees Orbit’s two VMs in the list.',
    async play(stage) {
      await closeDialog(stage.pages.manager);
      // In this order, so the oldest is Orbit's eval VM and the youngest Zephyr's (the plan ranks them by age).
      stage.memo.orbitEval = await placeSpot(stage, 'org_orbit', ['gpu-6']);
      stage.memo.quark = await placeSpot(stage, 'org_quark', ['gpu-7']);
      stage.memo.orbitTrain = await placeSpot(stage, 'org_orbit', ['gpu-2', 'gpu-3']);
      stage.memo.zephyr = await placeSpot(stage, 'org_zephyr', ['gpu-4']);
      const { tenant } = stage.pages;
      await tenant.goto(NODE_PATH);
      for (const id of ['gpu-2', 'gpu-3', 'gpu-4', 'gpu-6', 'gpu-7']) await expect(unit(tenant, id)).toHaveAttribute('data-state', 'spot-occupied');
      await expect(unit(tenant, 'gpu-5')).toHaveAttribute('data-state', 'released');
    },
    shows: ({ pages, memo }) => pages.tenant.getByTestId('vm-table').locator(`[data-vm-id="${memo.orbitTrain}"]`),
  },
  {
    slug: 'manager-plans',
    persona: 'manager',
    action: 'Nimbus needs 4 GPUs back: types 4 in “GPUs back” and asks for the plan with the fewest evictions.',
    outcome: () => 'The plan takes idle gpu-5, gpu-2 + gpu-3 (Orbit’s VM, which goes whole) and gpu-4 (Zephyr’s, the youngest): 2 evictions, not 3.',
    async play({ pages: { manager }, memo }) {
      await manager.goto(NODE_PATH);
      const form = manager.getByTestId('reclaim-plan-form');
      await form.getByLabel('GPUs back').fill('4');
      await form.getByRole('button', { name: 'Plan the fewest evictions' }).click();
      for (const id of ['gpu-2', 'gpu-3', 'gpu-4', 'gpu-5']) await expect(unit(manager, id)).toHaveAttribute('aria-pressed', 'true');
      await expect(manager.getByTestId('reclaim-plan').locator(`[data-reason-for="${memo.zephyr}"]`)).toBeVisible();
    },
    shows: ({ pages }) => pages.manager.getByTestId('reclaim-plan'),
  },
  {
    slug: 'manager-reclaims',
    persona: 'manager',
    action: 'Presses Reclaim…: the preview lists the two spot VMs it terminates; gives a reason and confirms.',
    outcome: () => 'gpu-2…gpu-5 are Nimbus’s again; Orbit’s and Zephyr’s VMs are terminated and their tenants told.',
    async play({ pages: { manager }, memo }) {
      await manager.getByRole('button', { name: 'Reclaim…' }).click();
      const dialog = manager.getByRole('dialog');
      await expect(dialog.getByTestId('preview-terminate').locator(`[data-vm-id="${memo.orbitTrain}"]`)).toBeVisible();
      await dialog.getByLabel(/Reason/).fill('Nimbus needs 4 GPUs back for a training run');
      await dialog.getByRole('button', { name: 'Terminate 2 spot VMs and reclaim 4 units' }).click();
      await expect(dialog.getByTestId('reclaim-summary')).toContainText('Terminated 2 spot VMs');
    },
    shows: ({ pages }) => pages.manager.getByRole('dialog').getByTestId('reclaim-summary'),
  },
  {
    slug: 'manager-schedules',
    persona: 'manager',
    action: 'Selects gpu-6 and gpu-7, Reclaim… → Schedule…: takes them back in two hours, with a reason the tenants read.',
    outcome: () => 'The reclaim is scheduled; the tenants of both spot VMs are told now, and the grid shows a clock on both units.',
    async play({ pages: { manager } }) {
      await closeDialog(manager);
      await selectRange(manager, 'gpu-6', 'gpu-7');
      await manager.getByRole('button', { name: 'Reclaim…' }).click();
      const dialog = manager.getByRole('dialog');
      await dialog.getByLabel('Schedule…').check();
      await dialog.getByLabel('Reclaim at (UTC)').fill(utcInput(new Date(Math.floor((Date.now() + 2 * HOUR + 5 * 60_000) / 60_000) * 60_000)));
      await dialog.getByLabel(/Reason/).fill('Nimbus grows to the whole node tonight');
      await dialog.getByRole('button', { name: 'Schedule the reclaim of 2 units' }).click();
      await expect(dialog.getByTestId('schedule-summary')).toContainText('2 spot VMs’ tenants were told.');
    },
    shows: ({ pages }) => pages.manager.getByRole('dialog').getByTestId('schedule-summary'),
  },
  {
    slug: 'tenants-see-the-notice',
    persona: 'tenant',
    who: 'Tom · Orbit Labs in the console; Quark Research over GET /v1/notifications',
    action: 'Tom opens his VMs; Quark’s program reads its notifications.',
    outcome: () => 'Orbit’s VM on gpu-6 carries its reclaim time (“Reclaim at … in 2 h”); Quark’s program got vm.reclaim_scheduled for its VM.',
    async play(stage) {
      await closeDialog(stage.pages.manager);
      const { items } = await stage.api<{ items: { kind: string; details: { vmId: string; reclaimAt?: string } }[] }>('org_quark', 'get', '/v1/notifications');
      const notice = items.find((n) => n.kind === 'vm.reclaim_scheduled' && n.details.vmId === stage.memo.quark);
      expect(notice?.details.reclaimAt, 'Quark is told when its VM is reclaimed').toBeTruthy();
      await stage.pages.tenant.goto(`/vms?nodeId=${NODE}`);
    },
    shows: ({ pages, memo }) => pages.tenant.locator(`[data-vm-id="${memo.orbitEval}"]`).getByTestId('vm-reclaim-at'),
  },
  {
    slug: 'tenant-notifications',
    persona: 'tenant',
    action: 'Tom opens Notifications (the bell counts them).',
    outcome: () => 'The VM on gpu-2 + gpu-3 was terminated — its spot capacity reclaimed, with the reason given; the one on gpu-6 will be, at the time given.',
    async play({ pages: { tenant }, memo }) {
      await tenant.goto('/notifications');
      await expect(tenant.locator('[data-notification-kind="vm.reclaim_scheduled"]', { hasText: memo.orbitEval! })).toBeVisible();
    },
    shows: ({ pages, memo }) => pages.tenant.locator('[data-notification-kind="vm.reclaimed"]', { hasText: memo.orbitTrain! }),
  },
  {
    slug: 'tenant-vm-reclaimed',
    persona: 'tenant',
    action: 'Tom opens the terminated VM’s page.',
    outcome: () => 'Status “reclaimed”: the capacity holder took its spot units back — and the reason it gave.',
    async play({ pages: { tenant }, memo }) {
      await tenant.goto(`/vms/${memo.orbitTrain}`);
      await expect(tenant.getByTestId('vm-status')).toHaveText('reclaimed');
      await expect(tenant.locator('[data-field="Reason given"]')).toHaveText('“Nimbus needs 4 GPUs back for a training run”');
    },
    shows: ({ pages }) => pages.tenant.locator('[data-field="Why it ended"]'),
  },
  {
    slug: 'operator-changes-topology',
    persona: 'operator',
    action: `Change topology… on ${NODE}: gpu-7’s memory becomes 94 GiB (a board swap); the dialog shows the per-unit diff.`,
    outcome: () => 'The diff names gpu-7 as changed, 80 GiB → 94 GiB, before anything is saved.',
    async play({ pages: { operator } }) {
      await operator.goto(NODE_PATH);
      await operator.getByRole('button', { name: 'Change topology…' }).click();
      await operator.getByRole('dialog').getByLabel('Unit 8 memory in GiB').fill('94');
    },
    shows: ({ pages }) => pages.operator.getByRole('dialog').getByTestId('topology-changes').locator('[data-unit-diff="gpu-7"]'),
  },
  {
    slug: 'operator-reviews',
    persona: 'operator',
    action: 'Saves the topology: the reservation was written against the old one, so it needs review. Opens Re-affirm…',
    outcome: () => 'The reservation is needs-review (its units withheld); the dialog shows what changed for it, unit by unit.',
    async play(stage) {
      const { operator } = stage.pages;
      const dialog = operator.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Save topology' }).click();
      await expect(dialog).toBeHidden();
      const card = reservationCard(stage, 'operator');
      await expect(card).toContainText('needs-review');
      await card.getByRole('button', { name: /^Re-affirm / }).click();
    },
    shows: ({ pages }) => pages.operator.getByRole('dialog').getByTestId('topology-diff').locator('[data-unit-diff="gpu-7"]'),
  },
  {
    slug: 'operator-reaffirms',
    persona: 'operator',
    action: 'Gives a reason and re-affirms the reservation against the new topology.',
    outcome: () => 'The reservation is active again; the spot VMs on gpu-6 and gpu-7 kept running throughout.',
    async play(stage) {
      const dialog = stage.pages.operator.getByRole('dialog');
      await dialog.getByLabel(/Reason/).fill('gpu-7 swapped for a 94 GiB board; checked');
      await dialog.getByRole('button', { name: 'Re-affirm reservation' }).click();
      await expect(dialog).toBeHidden();
      await expect(reservationCard(stage, 'operator')).toContainText('active');
      await expect(unit(stage.pages.operator, 'gpu-0')).toHaveAttribute('data-state', 'reserved');
    },
    shows: ({ pages }) => pages.operator.getByTestId('outcome-banner'),
  },
  {
    slug: 'manager-timeline',
    persona: 'manager',
    action: `Opens the node’s Timeline at 6 h: units × time, and the table of the same items for keyboards.`,
    outcome: () =>
      'The story on one picture: the reservation, the releases, the spot VMs the reclaim cut short, the scheduled reclaim ahead and the topology change, each marked.',
    async play({ pages: { manager } }) {
      // The URL names the window: the chart opens at once (a reload or a shared link does the same).
      await manager.goto(`${NODE_PATH}?tlZoom=6h`);
      const chart = manager.getByTestId('timeline-chart');
      await expect(chart.locator('[data-testid="timeline-event"][data-kind="reclaim"]').first()).toBeVisible();
      await expect(chart.locator('[data-testid="timeline-event"][data-kind="scheduled-reclaim"]').first()).toBeVisible();
      await expect(chart.locator('[data-testid="timeline-event"][data-kind="topology"]').first()).toBeVisible();
      await chart.locator('[data-testid="timeline-bar"][data-kind="vm"]').first().hover();
      await expect(manager.getByTestId('timeline-details')).toContainText('VM');
    },
    shows: ({ pages }) => pages.manager.getByTestId('timeline-section'),
  },
  {
    slug: 'manager-utilisation',
    persona: 'manager',
    action: 'Opens the reservation: its Utilisation over the last 7 days — GPU-hours held, idle, released, used by spot, evictions.',
    outcome: () =>
      'A few minutes of GPU-hours so far (the story is young), and the 2 evictions of the reclaim; the same figures roll up on the Utilisation page.',
    async play(stage) {
      const { manager } = stage.pages;
      await manager.goto(`${NODE_PATH}/reservations/${stage.memo.reservation}`);
      await expect(manager.getByTestId('utilisation-evictions')).toHaveText('2');
      await expect(manager.getByTestId('utilisation-chart')).toBeVisible();
    },
    shows: ({ pages }) => pages.manager.locator('section[aria-labelledby="utilisation-title"]'),
  },
];

/** `api` of the Stage over one request context: the demo org's seeded key as a bearer token. */
export function apiAs(request: APIRequestContext, keys: Record<string, string>): Stage['api'] {
  return async (orgId, method, path, body, status = 200) => {
    const res = await request[method](path, { headers: { authorization: `Bearer ${keys[orgId]}` }, data: body });
    expect(res.status(), `${method.toUpperCase()} ${path} as ${orgId}: ${await res.text()}`).toBe(status);
    return (await res.json()) as never;
  };
}
