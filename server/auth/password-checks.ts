import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import os from 'node:os';

/**
 * The CPU guard on password checks (docs/product.md §9.3 "Bounded password checks"). One scrypt
 * check costs 32 MiB and tens of milliseconds of a core; unbounded, a flood of sign-ins — unknown
 * emails included, since they are checked against a dummy hash so that timing tells nothing —
 * takes every core and libuv thread from the API. So each instance runs at most
 * `passwordCheckBound()` checks at once and refuses the excess at once (429 with Retry-After).
 * This is a guard of one process's CPU, not a correctness rule: nothing about who may sign in
 * is decided here (the throttle in PostgreSQL does that), so per-process memory is right.
 */

/**
 * How many password checks may run at once in this instance: `PASSWORD_CHECKS_AT_ONCE` when set
 * (a positive integer), else `max(1, cores − 1)` — a core is always left for everything else.
 */
export function passwordCheckBound(env: Record<string, string | undefined> = process.env): number {
  const set = Number(env.PASSWORD_CHECKS_AT_ONCE);
  if (Number.isInteger(set) && set >= 1 && set <= 256) return set;
  return Math.max(1, os.availableParallelism() - 1);
}

/**
 * The libuv thread pool a server needs: every password check holds one of its threads for the
 * check's length, and file reads, compression and DNS need theirs (libuv's default is 4 in all).
 */
export function threadPoolSizeFor(bound: number): number {
  return bound + 4;
}

/**
 * The environment to start an app server with (`next start`, `next dev`): `UV_THREADPOOL_SIZE`
 * raised to at least `threadPoolSizeFor(passwordCheckBound())`, so hashing never starves the
 * thread pool. libuv reads it once, when the pool first starts — before any of our code runs —
 * so it can only be set by whoever starts the process: every script that starts a server goes
 * through here (a test checks they do), and docs/product.md §9.3 says so for other deployments.
 */
export function appServerEnv<T extends Record<string, string | undefined>>(env: T): T & { UV_THREADPOOL_SIZE: string } {
  const needed = threadPoolSizeFor(passwordCheckBound(env));
  const current = Number(env.UV_THREADPOOL_SIZE);
  return { ...env, UV_THREADPOOL_SIZE: String(Number.isInteger(current) && current >= needed ? current : needed) };
}

/** Releases a slot taken from the gate; calling it again does nothing. */
export type Release = () => void;

type Waiter = { key: string; grant: (release: Release | null) => void; timer: ReturnType<typeof setTimeout> };

/**
 * At most `bound` holders at once. `tryEnter` never waits (unknown browsers: the excess is
 * refused at once); `enter` waits up to `waitMs` for a slot, ahead of everyone who did not wait
 * — for browsers the account already knows (docs/product.md §9.3), so that a flood of strangers
 * cannot keep an account's own browser out. Waiters are bounded too (`maxWaiters`), and one key
 * (a known device) waits at most once at a time, so one account's cookie cannot queue a flood.
 * `lease` takes a slot for a request before it is parsed (proxy.ts), named by a random ticket the
 * request then `claim`s; a lease nobody claims goes back after `ms`.
 */
export class PasswordCheckGate {
  private running = 0;
  private readonly waiters: Waiter[] = [];
  private readonly leases = new Map<string, { release: Release; timer: ReturnType<typeof setTimeout> }>();

  constructor(
    private readonly bound: number,
    private readonly maxWaiters = 16,
  ) {}

  /** A slot now, or null when all are taken. */
  tryEnter(): Release | null {
    if (this.running >= this.bound) return null;
    this.running++;
    return this.releaser();
  }

  /** A slot, waiting up to `waitMs` for one; null when none came in time or too many wait. */
  enter(key: string, waitMs: number): Promise<Release | null> {
    const now = this.tryEnter();
    if (now) return Promise.resolve(now);
    if (this.waiters.length >= this.maxWaiters || this.waiters.some((w) => w.key === key)) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        key,
        grant: resolve,
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          resolve(null);
        }, waitMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** A slot now, held under a fresh ticket until claimed or for `ms`; null when all are taken. */
  lease(ms: number): string | null {
    const release = this.tryEnter();
    if (!release) return null;
    const ticket = randomBytes(16).toString('base64url');
    const timer = setTimeout(() => {
      this.leases.delete(ticket);
      release();
    }, ms);
    timer.unref?.();
    this.leases.set(ticket, { release, timer });
    return ticket;
  }

  /** The slot a `lease` holds, now the caller's to release; null for an unknown or lapsed ticket. */
  claim(ticket: string): Release | null {
    const held = this.leases.get(ticket);
    if (!held) return null;
    this.leases.delete(ticket);
    clearTimeout(held.timer);
    return held.release;
  }

  /** Gives back the slot of a lease nobody claimed (its request ended first); a claimed or lapsed ticket is a no-op. */
  dropLease(ticket: string): void {
    this.claim(ticket)?.();
  }

  /** Whether every slot is taken. */
  get busy(): boolean {
    return this.running >= this.bound;
  }

  private releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiters.shift();
      if (next) {
        // The slot passes straight to the first waiter: the running count stays.
        clearTimeout(next.timer);
        next.grant(this.releaser());
      } else this.running--;
    };
  }
}

// On globalThis, not in a module variable: Next bundles instrumentation.ts (the door) apart from
// the route handlers, so each would get its own copy of this module — and of a module-level
// gate — in one process.
const GATE = Symbol.for('gpu-reservations.password-check-gate');
const SCOPE = Symbol.for('gpu-reservations.sign-in-scope');
type Slots = { [GATE]?: PasswordCheckGate; [SCOPE]?: AsyncLocalStorage<SignInScope> };

/** This instance's gate, sized by `passwordCheckBound()` on first use. */
export function passwordCheckGate(): PasswordCheckGate {
  const g = globalThis as Slots;
  return (g[GATE] ??= new PasswordCheckGate(passwordCheckBound()));
}

/** Where the request's lease ticket travels from the door to the route (the door drops any a client sent). */
export const PASSWORD_CHECK_TICKET_HEADER = 'x-password-check-ticket';

/**
 * What one sign-in request's transport and its check share (server/auth/http.ts, the sign-in
 * form's action): whether the request already holds its password-check slot (claimed from the
 * door's lease), and the refusal the check decided, if any — so the transport answers 429 from
 * what happened, never from anything the client sent (a `code=` in its callback URL).
 */
export type SignInScope = { holdsSlot: boolean; refusal?: { code: 'busy' | 'paused'; retryAfterSeconds: number } };

function scopes(): AsyncLocalStorage<SignInScope> {
  const g = globalThis as Slots;
  return (g[SCOPE] ??= new AsyncLocalStorage<SignInScope>());
}

/**
 * Runs one sign-in request's handling: claims the slot the door leased for it under `ticket`
 * (if still held), runs `fn` with it, and releases it after.
 * @returns `fn`'s result and the scope, with the refusal the check noted.
 */
export async function runSignInRequest<T>(ticket: string | null, fn: () => Promise<T>): Promise<{ result: T; scope: SignInScope }> {
  const slot = ticket ? passwordCheckGate().claim(ticket) : null;
  const scope: SignInScope = { holdsSlot: slot !== null };
  try {
    return { result: await scopes().run(scope, fn), scope };
  } finally {
    slot?.();
  }
}

/** The current sign-in request's scope, or undefined outside one (tests, other callers). */
export function currentSignInScope(): SignInScope | undefined {
  return scopes().getStore();
}
