/**
 * A local PgBouncer in transaction mode in front of the storm's PostgreSQL (issue 9 point 6):
 * what deployments with many instances run. Debian's `pgbouncer` package; run as the `postgres`
 * user when we are root (it refuses to run as root), with its ini, auth file, log and pid file
 * in a fresh folder under the system temp folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../db/embedded';

const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'];

/** The pgbouncer binary (`PGBOUNCER_PATH` when set, else PATH and the usual places), or undefined when there is none. */
export function findPgBouncer(): string | undefined {
  const explicit = process.env.PGBOUNCER_PATH;
  if (explicit !== undefined) return fs.existsSync(explicit) ? explicit : undefined;
  const onPath = spawnSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).stdout.trim();
  return [onPath, ...CANDIDATES].find((p) => p && fs.existsSync(p));
}

export type PgBouncer = { url: string; logFile: string; stop: () => Promise<void> };

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('PgBouncer refuses to run as root, and there is no `postgres` user to run it as');
  return { uid, gid };
}

async function waitForPort(port: number, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`pgbouncer exited (${child.exitCode}): ${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : ''}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('pgbouncer did not listen within 15 s');
}

/**
 * Starts PgBouncer (pool_mode = transaction) for the server at `serverUrl`.
 * @param poolSize server connections per database/user: fewer than the instances' pools hold
 *   together, so transactions of different clients really share server connections.
 * @returns the URL the app instances connect to, and how to stop it.
 * @throws Error when pgbouncer is missing or does not start.
 */
export async function startPgBouncer(serverUrl: string, poolSize = 8): Promise<PgBouncer> {
  const bin = findPgBouncer();
  if (!bin) throw new Error('pgbouncer is not installed');
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const database = server.pathname.slice(1) || 'postgres';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-pgbouncer-'));
  const port = await findFreePort();
  const logFile = path.join(dir, 'pgbouncer.log');
  const authFile = path.join(dir, 'userlist.txt');
  fs.writeFileSync(authFile, `"${user}" "${password}"\n`, { mode: 0o600 });
  const ini = [
    '[databases]',
    `${database} = host=${server.hostname} port=${server.port} dbname=${database}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = scram-sha-256',
    `auth_file = ${authFile}`,
    'pool_mode = transaction',
    `default_pool_size = ${poolSize}`,
    'max_client_conn = 1000',
    `logfile = ${logFile}`,
    `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
    // A client waiting for a server connection while PostgreSQL is down gets an error after
    // this long (08P01, a 503 for the app) rather than PgBouncer's default 120 s; and once the
    // server is back, PgBouncer tries it again after 1 s, not 15.
    'query_wait_timeout = 3',
    'server_connect_timeout = 2',
    'server_login_retry = 1',
    'log_connections = 0',
    'log_disconnections = 0',
  ].join('\n');
  const iniFile = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(iniFile, ini + '\n', { mode: 0o644 });
  const as = postgresUser();
  if (as) {
    fs.chownSync(dir, as.uid, as.gid);
    for (const f of [authFile, iniFile]) fs.chownSync(f, as.uid, as.gid);
  }
  const child = spawn(bin, [iniFile], { stdio: ['ignore', 'ignore', 'pipe'], ...(as ?? {}) });
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (c: string) => stderr.push(c));
  try {
    await waitForPort(port, child, logFile);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${(e as Error).message} ${stderr.join('').slice(-1000)}`);
  }
  const url = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    url,
    logFile,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
