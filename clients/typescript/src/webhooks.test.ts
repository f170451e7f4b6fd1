import { Webhook } from 'standardwebhooks';
import { expect, test } from 'vitest';
import { verifyWebhook } from './webhooks';

// Deliveries are signed per Standard Webhooks (docs/product.md §5.7): a good one verifies, a
// tampered one does not.
const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
const body = JSON.stringify({ id: 'evt_1', type: 'vm.reclaimed', timestamp: new Date().toISOString(), data: { vmId: 'vm-1' } });

test('verifyWebhook accepts a signed delivery and refuses a tampered one', () => {
  const now = new Date();
  const headers = new Headers({
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('evt_1', now, body),
  });
  expect(verifyWebhook(secret, body, headers).type).toBe('vm.reclaimed');
  expect(verifyWebhook(secret, body, Object.fromEntries(headers)).id).toBe('evt_1');
  expect(() => verifyWebhook(secret, body.replace('vm-1', 'vm-2'), headers)).toThrow();
});
