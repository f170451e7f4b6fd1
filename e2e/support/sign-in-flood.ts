/**
 * An attacker's sign-in flood, in a process of its own (as an attacker is not in the server's
 * or the measuring client's process): a burst of `concurrency` credentials sign-ins at once for
 * fresh unknown emails (wave 0), then as many clients sending them back to back until `ms` is
 * up, through Auth.js's own endpoint with one CSRF token and cookie, as a script would.
 * Prints `started` when the burst goes out, then one
 * JSON line: every answer's status, time from its send, Location and Retry-After. One wave before
 * `started` opens its connections and warms its client; it is not reported.
 * Usage: tsx e2e/support/sign-in-flood.ts <base URL> <concurrency> <ms>
 */
const [base, concurrencyArg, msArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const duration = Number(msArg);

import net from 'node:net';

const res = await fetch(`${base}/api/auth/csrf`);
const cookie = res.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ');
const { csrfToken } = (await res.json()) as { csrfToken: string };

type Answer = { status: number; ms: number; location: string; retryAfter: string | null; wave: number };
const answers: Answer[] = [];
let n = 0;
async function guess(wave: number): Promise<void> {
  const started = performance.now();
  try {
    const r = await fetch(`${base}/api/auth/callback/credentials`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, email: `flood-${process.pid}-${n++}@nowhere.example`, password: 'guess', callbackUrl: '/' }),
    });
    await r.arrayBuffer();
    answers.push({
      status: r.status,
      ms: performance.now() - started,
      location: r.headers.get('location') ?? '',
      retryAfter: r.headers.get('retry-after'),
      wave,
    });
  } catch (e) {
    answers.push({ status: 0, ms: performance.now() - started, location: String(e), retryAfter: null, wave });
  }
}

// An attacker's connections are open and its client warm before it floods: one wave first, not counted.
await Promise.all(Array.from({ length: concurrency }, () => guess(-1)));
answers.length = 0;
/**
 * The burst, on connections opened beforehand and requests written before the first is sent, so
 * that what is timed is the server's answer and not this client's own work: each answer is timed
 * from its request's write to its status line and headers.
 */
async function burst(): Promise<void> {
  const url = new URL(base!);
  const sockets = await Promise.all(
    Array.from(
      { length: concurrency },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(Number(url.port), url.hostname, () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  const requests = sockets.map(() => {
    const body = new URLSearchParams({ csrfToken, email: `flood-${process.pid}-${n++}@nowhere.example`, password: 'guess', callbackUrl: '/' }).toString();
    return `POST /api/auth/callback/credentials HTTP/1.1\r\nHost: ${url.host}\r\nCookie: ${cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  });
  await Promise.all(
    sockets.map(
      (socket, i) =>
        new Promise<void>((resolve) => {
          let head = '';
          const started = performance.now();
          const done = (status: number, headers: string) => {
            const header = (name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(headers)?.[1]?.trim() ?? null;
            answers.push({ status, ms: performance.now() - started, location: header('location') ?? '', retryAfter: header('retry-after'), wave: 0 });
            socket.destroy();
            resolve();
          };
          socket.on('data', (chunk: Buffer) => {
            head += chunk.toString('latin1');
            const end = head.indexOf('\r\n\r\n');
            if (end >= 0) done(Number(head.slice(9, 12)), head.slice(0, end));
          });
          socket.on('error', (e) => done(0, String(e)));
          socket.write(requests[i]!);
        }),
    ),
  );
}

const until = performance.now() + duration;
console.log('started');
// Wave 0: the burst, all at once, answered before anything else is sent.
await burst();
// Then each client guesses again as soon as it is answered, until the time is up.
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let wave = 1; performance.now() < until; wave++) await guess(wave);
  }),
);
console.log(JSON.stringify(answers));
