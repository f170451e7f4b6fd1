import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { asOrg, signIn, unit } from './support';

// Issue 23.1, 23.4 (grid and org picker) and 23.6: every page from 360 px to 2560 px without
// sideways scroll, an action bar that stays put under a finger, ids that wrap only at their
// separators, the grid's keyboard, the org picker as a combobox, and what a unit is.

type Created = { id: string };

/** A node of its own with a long id (it must wrap on a phone) and units that say what they are. */
async function longNode(request: APIRequestContext): Promise<string> {
  const id = `e2e-screens-a-rather-long-node-identifier_for.narrow-screens-${Date.now().toString(36)}`;
  const units = Array.from({ length: 8 }, (_, i) => ({ id: `gpu-${i}`, model: 'H100-SXM5', memoryGiB: 80, nvlinkDomain: `nvl-${i < 4 ? 'a' : 'b'}` }));
  await asOrg(request, 'org_platform', 'post', '/v1/nodes', { id, name: 'E2E screens', ownerOrgId: 'org_acme', units }, 201);
  return id;
}

/** The owner reserves gpu-0…gpu-3 for Nimbus, managed by Helix, from now or `startsAt`. */
async function reserve(request: APIRequestContext, nodeId: string, unitIds: string[], startsAt?: string): Promise<string> {
  const body = { reservedUnitIds: unitIds, allowedOrgIds: ['org_nimbus'], managingOrgIds: ['org_helix'], ...(startsAt ? { startsAt } : {}) };
  return (await asOrg<Created>(request, 'org_acme', 'post', `/v1/nodes/${nodeId}/reservations`, body, 201)).id;
}

async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect.soft(scrollWidth, `${what}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(innerWidth);
}

test('every page fits every width from 360 px to 2560 px: no sideways scroll of the page', async ({ page, request }) => {
  test.setTimeout(120_000);
  const nodeId = await longNode(request);
  const reservationId = await reserve(request, nodeId, ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5', 'gpu-6', 'gpu-7']);
  const pages = [
    '/',
    '/nodes/acme-h100-01',
    `/nodes/${nodeId}`,
    '/nodes/acme-h100-01/reservations/res-nimbus-01',
    `/nodes/${nodeId}/reservations/${reservationId}`,
    '/audit',
    '/vms',
    '/vms/vm-orbit-train-01',
    '/capacity',
    '/api-keys',
    '/webhooks',
    '/notifications',
    '/utilisation?window=30d',
    '/no-such-page',
  ];
  const widths = [360, 375, 1440, 2560];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/sign-in');
    await expectNoSidewaysScroll(page, `/sign-in at ${width} px`);
  }
  // The operator's header has the most in it (the operator badge, Locked sign-ins).
  for (const email of ['mark@helix.example', 'olivia@platform.example']) {
    await page.context().clearCookies();
    await signIn(page, email);
    for (const width of widths) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of email.startsWith('olivia') ? ['/', '/sign-ins', `/nodes/${nodeId}`] : pages) {
        await page.goto(path);
        await expectNoSidewaysScroll(page, `${path} as ${email} at ${width} px`);
      }
    }
  }
  // Audit details expanded stay inside their card's scroll, never the page's.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/audit');
  await page.locator('summary', { hasText: 'Details' }).first().click();
  await expectNoSidewaysScroll(page, '/audit with details open at 375 px');
  // A reservation card with eight units fits its panel at 1440 px and at 375 px.
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/nodes/${nodeId}`);
    const card = page.locator(`[data-reservation-id="${reservationId}"]`);
    const overflow = await card.evaluate((li) =>
      [...li.querySelectorAll('*')].some((e) => e.getBoundingClientRect().right > li.getBoundingClientRect().right + 0.5),
    );
    expect.soft(overflow, `the 8-unit reservation card overflows at ${width} px`).toBe(false);
  }
});

test('on a phone (375 px, touch) Reclaim… stays where it was tapped: a tap selects, a tap opens the preview', async ({ browser, request, baseURL }) => {
  const nodeId = await longNode(request);
  const reservationId = await reserve(request, nodeId, ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);
  await asOrg(request, 'org_helix', 'post', `/v1/nodes/${nodeId}/reservations/${reservationId}/release`, { unitIds: ['gpu-0', 'gpu-1'] });
  const context = await browser.newContext({ baseURL, viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await signIn(page, 'mark@helix.example');
  await page.goto(`/nodes/${nodeId}`);
  await expectNoSidewaysScroll(page, 'the node page on a phone');

  await unit(page, 'gpu-1').tap();
  await expect(unit(page, 'gpu-1')).toHaveAttribute('aria-pressed', 'true');
  const reclaim = page.getByRole('button', { name: 'Reclaim…' });
  await expect(reclaim).toBeEnabled();
  const before = await reclaim.boundingBox();
  // The finger leaves the grid on its way to the button: nothing under it may move.
  await page.getByRole('group', { name: 'GPU units' }).dispatchEvent('pointerleave');
  await unit(page, 'gpu-1').dispatchEvent('pointerleave');
  await unit(page, 'gpu-1').dispatchEvent('mouseleave');
  await page.waitForTimeout(300);
  expect(await reclaim.boundingBox()).toEqual(before);
  // Another unit's details (a longer line) under the finger do not move it either.
  await unit(page, 'gpu-0').dispatchEvent('mouseenter');
  expect(await reclaim.boundingBox()).toEqual(before);
  await unit(page, 'gpu-0').dispatchEvent('mouseleave');
  expect(await reclaim.boundingBox()).toEqual(before);

  await reclaim.tap();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Reclaim 1 unit' })).toBeVisible();
  await context.close();
});

test('ids wrap only after a separator, never inside a word', async ({ page, request }) => {
  const nodeId = await longNode(request);
  await signIn(page, 'mark@helix.example');
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/nodes/${nodeId}`);
  const id = page.getByTestId('node-id');
  await expect(id).toHaveText(nodeId);
  // Each rendered line of the id, as the layout broke it (one client rect per line box).
  const lines = await id.evaluate((el) => {
    const text = el.textContent ?? '';
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const chars: { ch: string; top: number }[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < (n.textContent ?? '').length; i++) {
        const range = document.createRange();
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        chars.push({ ch: n.textContent![i]!, top: Math.round(range.getClientRects()[0]?.top ?? -1) });
      }
    }
    const out: string[] = [];
    chars.forEach((c, i) => {
      if (i === 0 || c.top !== chars[i - 1]!.top) out.push('');
      out[out.length - 1] += c.ch;
    });
    return { out, text, breakAll: getComputedStyle(el).wordBreak };
  });
  expect(lines.out.join('')).toBe(nodeId);
  expect(lines.out.length, `the id should wrap at 360 px: ${JSON.stringify(lines.out)}`).toBeGreaterThan(1);
  for (const line of lines.out.slice(0, -1)) expect(line, `a line of ${JSON.stringify(lines.out)}`).toMatch(/[-/_.:]$/);
  expect(lines.breakAll).not.toBe('break-all');
});

test('grid keyboard: Shift+Arrow extends the selection from the anchor, Escape clears it', async ({ page, request }) => {
  const nodeId = await longNode(request);
  await signIn(page, 'alice@acme.example');
  await page.goto(`/nodes/${nodeId}`);
  await unit(page, 'gpu-1').focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  const pressed = async () => page.locator('[data-unit-id][aria-pressed="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-unit-id')));
  expect(await pressed()).toEqual(['gpu-1', 'gpu-2', 'gpu-3']);
  await expect(unit(page, 'gpu-3')).toBeFocused();
  // Back towards the anchor shrinks the range.
  await page.keyboard.press('Shift+ArrowLeft');
  expect(await pressed()).toEqual(['gpu-1', 'gpu-2']);
  // Shift+End: to the last unit (eight columns at this width: one row, ArrowDown stays).
  await page.keyboard.press('Shift+ArrowDown');
  expect(await pressed()).toEqual(['gpu-1', 'gpu-2']);
  await page.keyboard.press('Shift+End');
  expect(await pressed()).toEqual(['gpu-1', 'gpu-2', 'gpu-3', 'gpu-4', 'gpu-5', 'gpu-6', 'gpu-7']);
  await expect(page.getByTestId('selection-hint')).toContainText('7 units selected');
  await page.keyboard.press('Escape');
  expect(await pressed()).toEqual([]);
  await expect(unit(page, 'gpu-7')).toBeFocused();
  // A plain arrow then Shift+Arrow: a new run from where focus is, on top of what is selected.
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Shift+ArrowLeft');
  expect(await pressed()).toEqual(['gpu-4', 'gpu-5', 'gpu-7']);

  // On a phone the grid has four columns: ArrowDown goes four on.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.keyboard.press('Escape');
  await unit(page, 'gpu-0').focus();
  await page.keyboard.press('Shift+ArrowDown');
  expect(await pressed()).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3', 'gpu-4']);
});

test('org picker is a combobox: typing filters, arrows move, Enter adds and keeps focus, Escape closes the list only', async ({ page, request }) => {
  const nodeId = await longNode(request);
  await signIn(page, 'alice@acme.example');
  await page.goto(`/nodes/${nodeId}`);
  await unit(page, 'gpu-0').click();
  await page.getByRole('button', { name: 'Reserve…' }).click();
  const dialog = page.getByRole('dialog');
  const audience = dialog.getByRole('group', { name: /Audience/ });
  const input = audience.getByRole('combobox', { name: /Search orgs/ });
  await input.fill('i');
  const list = audience.getByRole('listbox');
  await expect(list.getByRole('option').first()).toBeVisible();
  await expect(input).toHaveAttribute('aria-expanded', 'true');
  await input.fill('Nimbus');
  await expect(list.getByRole('option')).toHaveCount(1);
  await input.press('ArrowDown');
  const option = list.getByRole('option', { name: /Nimbus AI/ });
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await expect(input).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
  await input.press('Enter');
  await expect(audience.getByTestId('org-chip')).toContainText('org_nimbus');
  await expect(input).toBeFocused();
  await expect(dialog).toBeVisible();
  // Enter on an org already added adds nothing, and never submits the dialog.
  await input.press('Enter');
  await expect(audience.getByTestId('org-chip')).toHaveCount(1);

  // Several matches: ArrowDown and ArrowUp move the active option, and wrap.
  await input.fill('a');
  await expect(list.getByRole('option').nth(1)).toBeVisible();
  const count = await list.getByRole('option').count();
  await input.press('ArrowDown');
  await input.press('ArrowDown');
  await expect(list.getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true');
  await input.press('ArrowUp');
  await expect(list.getByRole('option').nth(0)).toHaveAttribute('aria-selected', 'true');
  await input.press('ArrowUp');
  await expect(list.getByRole('option').nth(count - 1)).toHaveAttribute('aria-selected', 'true');
  // Escape closes the list, not the dialog; a second Escape is the dialog's.
  await input.press('Escape');
  await expect(list).toBeHidden();
  await expect(input).toHaveAttribute('aria-expanded', 'false');
  await expect(dialog).toBeVisible();
  await expect(input).toBeFocused();
  // A click picks too, and focus stays in the input.
  await input.fill('Helix');
  await list.getByRole('option', { name: /Helix/ }).click();
  await expect(audience.getByTestId('org-chip')).toHaveCount(2);
  await expect(input).toBeFocused();
});

test('a unit says what it is, and a reservation ahead shows on the grid with a mark and a time', async ({ page, request }) => {
  const nodeId = await longNode(request);
  const startsAt = new Date(Date.now() + 3 * 86_400_000);
  startsAt.setUTCHours(9, 0, 0, 0);
  await reserve(request, nodeId, ['gpu-6', 'gpu-7'], startsAt.toISOString());
  // A tenant with no part in the reservation sees when it starts, not whose it is.
  await signIn(page, 'tom@orbit.example');
  await page.goto(`/nodes/${nodeId}`);
  const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(startsAt);
  const cell = unit(page, 'gpu-6');
  await expect(cell).toHaveAttribute('data-state', 'free');
  await expect(cell).toHaveAttribute('title', new RegExp(`H100-SXM5, 80 GiB, NVLink nvl-b .*reserved from ${when} UTC`));
  await expect(cell).not.toHaveAttribute('title', /reservation /);
  await expect(cell.getByTestId('pending-mark')).toBeVisible();
  await expect(unit(page, 'gpu-5').getByTestId('pending-mark')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Legend' })).toContainText('Reserved ahead');
  // The details line under the pointer says it too.
  await unit(page, 'gpu-2').hover();
  await expect(page.getByTestId('unit-details')).toContainText('gpu-2 · free · H100-SXM5, 80 GiB, NVLink nvl-a');
  await cell.hover();
  await expect(page.getByTestId('unit-details')).toContainText(`reserved from ${when} UTC`);
});
