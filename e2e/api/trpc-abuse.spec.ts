import { expect, test } from '../support/api';
import http from 'node:http';
import { E2E_PORT } from '../support/state';

// The console's tRPC endpoint on the production server, abused as in the security report:
// huge bodies are refused at 64 KiB (413) without the process holding them, huge batches are
// refused whole, and the server keeps answering afterwards.

/**
 * Streams `mib` MiB of a JSON body in 1 MiB chunks (chunked, no Content-Length, so only the
 * server's streaming cap can stop it) and resolves with the status the server answered and
 * how much was written before it did.
 */
function streamHugeBody(path: string, mib: number): Promise<{ status: number; writtenMiB: number }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let written = 0;
    let answered = false;
    const req = http.request(
      { host: '127.0.0.1', port: E2E_PORT, method: 'POST', path, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      (res) => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, writtenMiB: written });
        req.destroy();
      },
    );
    req.on('error', (e) => (answered ? undefined : reject(e)));
    req.write('{"0":{"json":{"nodeId":"acme-h100-02","reservationId":"res-nimbus-02","unitIds":["gpu-0"],"dryRun":true,"reason":"');
    const pump = () => {
      while (!answered && written < mib) {
        written += 1;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end('"}}}');
    };
    pump();
  });
}

test('three parallel 100 MiB reclaim reasons are each refused with 413, and the server keeps answering', async ({ request }) => {
  const results = await Promise.all([1, 2, 3].map(() => streamHugeBody('/api/trpc/reservations.reclaim?batch=1', 100)));
  for (const r of results) {
    expect(r.status).toBe(413);
    // The server answered long before the client could send it all.
    expect(r.writtenMiB).toBeLessThan(100);
  }
  const alive = await request.get('/v1/openapi.json');
  expect(alive.status()).toBe(200);
});

test('a declared oversized body is refused unread with 413 problem+json', async ({ request }) => {
  const res = await request.post('/api/trpc/reservations.reclaim', { headers: { 'content-type': 'application/json' }, data: 'x'.repeat(70 * 1024) });
  expect(res.status()).toBe(413);
  expect(res.headers()['content-type']).toBe('application/problem+json');
  expect(await res.json()).toMatchObject({ code: 'payload_too_large', status: 413 });
});

test('a batch of 1,400 calls is refused as a whole with a 4xx, and the server keeps answering', async ({ request }) => {
  const paths = Array.from({ length: 1400 }, () => 'nodes.get').join(',');
  const res = await request.get(`/api/trpc/${paths}?batch=1&input=%7B%7D`);
  expect(res.status()).toBeGreaterThanOrEqual(400);
  expect(res.status()).toBeLessThan(500);
  const small = Array.from({ length: 200 }, () => 'nodes.get').join(',');
  const batch = await request.get(`/api/trpc/${small}?batch=1&input=%7B%7D`);
  expect(batch.status()).toBe(400);
  expect(await batch.text()).toContain('Batch call exceeds maximum size');
  expect((await request.get('/v1/openapi.json')).status()).toBe(200);
});

test('Auth.js endpoints refuse a huge body with 413 before reading it, and the server keeps answering', async ({ request }) => {
  const r = await streamHugeBody('/api/auth/callback/credentials', 50);
  expect(r.status).toBe(413);
  expect(r.writtenMiB).toBeLessThan(50);
  expect((await request.get('/v1/openapi.json')).status()).toBe(200);
});

test('hostile proxy headers and undecodable paths answer 4xx or the page, never 5xx', async ({ request }) => {
  const hostile: Record<string, string>[] = [
    { 'x-forwarded-proto': 'https,http' },
    { 'x-forwarded-proto': 'ht tp' },
    { 'x-forwarded-host': 'a b' },
    { 'x-forwarded-host': '[::1' },
  ];
  for (const headers of hostile) {
    for (const path of ['/', '/sign-in', '/nodes/acme-h100-02']) {
      const res = await request.get(path, { headers, maxRedirects: 0 });
      expect(res.status(), `${path} ${JSON.stringify(headers)}`).toBeLessThan(500);
    }
  }
  for (const path of ['/nodes/%ZZ', '/api/trpc/%ZZ', '/v1/%ZZ']) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(404);
  }
});
