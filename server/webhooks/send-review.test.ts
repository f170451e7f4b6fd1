/**
 * Review findings (an adversarial review of issue 25, mended) for the webhook sender (docs/product.md §5.7 "Where it may send"): name
 * resolution mocked, so no test here reaches the network.
 */
import type * as DnsPromises from 'node:dns/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';

const dns = vi.hoisted(() => ({ impl: null as null | ((name: string) => Promise<{ address: string; family: number }[]>) }));
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof DnsPromises>();
  const lookup = (name: string, opts: unknown) => (dns.impl ? dns.impl(name) : (real.lookup as (n: string, o: unknown) => Promise<unknown>)(name, opts));
  return { ...real, default: { ...real, lookup }, lookup };
});

import { SEND_TIMEOUT_MS, sendWebhook } from './send';

afterEach(() => {
  dns.impl = null;
  vi.useRealTimers();
});

describe('review: sendWebhook', () => {
  it('"10 s for the whole exchange": a name that never resolves still ends the send within 10 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // An attacker's authoritative server that never answers (getaddrinfo can take tens of seconds).
    dns.impl = () => new Promise(() => {});
    let done = false;
    void sendWebhook('https://slow.attacker.example/hook', '{}', {}).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(SEND_TIMEOUT_MS + 1_000);
    expect(done).toBe(true);
  });

  it('the delivery log does not disclose what an internal name resolves to', async () => {
    // An org points its endpoint (or a redeliver, answered synchronously) at an internal name.
    dns.impl = async () => [{ address: '10.20.30.40', family: 4 }];
    const outcome = await sendWebhook('https://db.corp.internal/hook', '{}', {});
    expect(outcome.ok).toBe(false);
    expect(outcome.error).not.toContain('10.20.30.40');
  });
});
