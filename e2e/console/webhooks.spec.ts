import { expect, test } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { readState } from '../support/state';
import { asOrg, managedSpotNode, signIn } from './support';

/**
 * docs/product.md §5.7 Webhooks, as a spot tenant's person would use them: add an endpoint in the
 * console (its signing secret shown once), see its VM's reclaim arrive signed — verified here with
 * the Standard Webhooks library and that secret —, read the delivery log, redeliver, disable,
 * rotate the secret, delete. The receiver listens on loopback in this process (the test server
 * runs with WEBHOOKS_ALLOW_LOOPBACK=1).
 */
test('a tenant adds a webhook, gets its VM’s reclaim signed, reads the log, redelivers, rotates and deletes', async ({ page, request }) => {
  test.setTimeout(60_000);
  const got: { headers: Record<string, string>; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      got.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/gpu-hook`;
  try {
    await signIn(page, 'tom@orbit.example');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
    await expect(page.getByTestId('webhook-table')).toContainText('No webhook endpoints yet.');

    // An address it may not send to is refused next to the field, in words.
    await page.getByLabel('URL').fill('https://10.0.0.1/hook');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByRole('alert').first()).toContainText('must be a public address: 10.0.0.1 is a private address');

    await page.getByLabel('URL').fill(url);
    await page.getByLabel('What it is for').fill('checkpoint on reclaim');
    await page.getByRole('checkbox', { name: 'vm.reclaimed', exact: true }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByTestId('webhook-secret-dialog');
    await expect(dialog).toContainText('shown this once');
    const secret = ((await dialog.getByTestId('webhook-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = page.getByTestId('webhook-table').locator('tbody tr').first();
    await expect(row).toContainText(url);
    await expect(row).toContainText('vm.reclaimed');
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'enabled');

    // On a node of its own: Helix releases units, Tom's program runs a spot VM there, Helix reclaims: Tom's endpoint hears of it.
    const { nodeId, reservationId, vmId } = await managedSpotNode(request, 'hook');
    await asOrg(request, 'org_helix', 'post', `/v1/nodes/${nodeId}/reservations/${reservationId}/reclaim`, { unitIds: ['gpu-2'], reason: 'back to Nimbus' });
    await expect.poll(() => got.length, { timeout: 10_000 }).toBe(1);
    const delivered = new Webhook(secret).verify(got[0]!.body, got[0]!.headers) as { id: string; type: string; data: Record<string, unknown> };
    expect(delivered).toMatchObject({ type: 'vm.reclaimed', data: { vmId, nodeId, reason: 'back to Nimbus' } });
    expect(delivered.data).not.toHaveProperty('reservationId');

    // The delivery log, and a redelivery with the same webhook-id.
    await row.getByRole('link', { name: 'Deliveries' }).click();
    const log = page.getByTestId('delivery-log');
    await expect(log).toContainText('vm.reclaimed');
    await expect(log).toContainText('HTTP 204');
    await log.getByRole('button', { name: /^Redeliver vm\.reclaimed/ }).click();
    await expect(page.getByTestId('redelivery-status')).toContainText('Sent vm.reclaimed again: HTTP 204');
    await expect.poll(() => got.length).toBe(2);
    expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    await expect(log.locator('tbody tr')).toHaveCount(2);
    await expect(log).toContainText('(redelivered)');
    await page.screenshot({ path: 'test-results/webhooks.png', fullPage: true });

    // Disable and enable again; rotate (a new secret, once); delete after asking.
    await page.getByRole('button', { name: `Disable ${url}` }).click();
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'disabled');
    await page.getByRole('button', { name: `Enable ${url}` }).click();
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'enabled');
    await page.getByRole('button', { name: `Rotate secret of ${url}` }).click();
    const rotated = page.getByTestId('webhook-secret-dialog');
    await expect(rotated).toContainText('signs beside it for 24 hours');
    expect(((await rotated.getByTestId('webhook-secret').textContent()) ?? '').trim()).not.toBe(secret);
    await rotated.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: `Delete ${url}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(page.getByTestId('webhook-table')).toContainText('No webhook endpoints yet.');

    // Another org sees none of it.
    const theirs = await request.get('/v1/webhooks', { headers: { authorization: `Bearer ${readState().keys.org_helix}` } });
    expect(((await theirs.json()) as { items: unknown[] }).items).toEqual([]);
  } finally {
    await new Promise((r) => receiver.close(r));
  }
});
