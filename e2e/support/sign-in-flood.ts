/**
 * An attacker's sign-in flood, in a process of its own (as an attacker is not in the server's
 * or the measuring client's process): `concurrency` clients, each sending credentials sign-ins
 * for fresh unknown emails back to back, for `ms`, through Auth.js's own endpoint with one CSRF
 * token and cookie, as a script would. Prints `started` when the first wave goes out, then one
 * JSON line: every answer's status, time from its send, Location and Retry-After. One wave before
 * `started` opens its connections and warms its client; it is not reported.
 * Usage: tsx e2e/support/sign-in-flood.ts <base URL> <concurrency> <ms>
 */
const [base, concurrencyArg, msArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const duration = Number(msArg);

export {};

const res = await fetch(`${base}/api/auth/csrf`);
const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
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
    answers.push({ status: r.status, ms: performance.now() - started, location: r.headers.get('location') ?? '', retryAfter: r.headers.get('retry-after'), wave });
  } catch (e) {
    answers.push({ status: 0, ms: performance.now() - started, location: String(e), retryAfter: null, wave });
  }
}

// An attacker's connections are open and its client warm before it floods: one wave first, not counted.
await Promise.all(Array.from({ length: concurrency }, () => guess(-1)));
answers.length = 0;
const until = performance.now() + duration;
console.log('started');
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let wave = 0; wave === 0 || performance.now() < until; wave++) await guess(wave);
  }),
);
console.log(JSON.stringify(answers));
