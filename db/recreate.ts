import postgres from 'postgres';
import { migrateDatabase } from './migrate';

// Database names we create and drop: plain identifiers, so they need no quoting rules of their own.
const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
// The maintenance database we connect to, and the templates: never dropped.
const RESERVED = new Set(['postgres', 'template0', 'template1']);

/** `url`'s database name, and the URL of the same server's maintenance database `postgres`. */
function splitDatabaseUrl(url: string): { name: string; maintenanceUrl: string } {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!DATABASE_NAME.test(name)) throw new Error(`Database name "${name}" must match ${DATABASE_NAME}`);
  u.pathname = '/postgres';
  u.hash = '';
  return { name, maintenanceUrl: u.toString() };
}

async function onMaintenance<T>(url: string, fn: (admin: postgres.Sql, name: string) => Promise<T>): Promise<T> {
  const { name, maintenanceUrl } = splitDatabaseUrl(url);
  const admin = postgres(maintenanceUrl, { max: 1, onnotice: () => {} });
  try {
    return await fn(admin, name);
  } finally {
    await admin.end();
  }
}

/**
 * Drops the database `url` names (ending its connections) and creates it empty, from the same
 * server's maintenance database. This is how a database is reset: audit events are append-only
 * (migration 0008 refuses UPDATE, DELETE and TRUNCATE on them), so no table is ever emptied.
 * @throws Error for the maintenance database or a template, which are never dropped.
 */
export async function recreateDatabase(url: string): Promise<void> {
  await onMaintenance(url, async (admin, name) => {
    if (RESERVED.has(name)) throw new Error(`Refusing to drop the "${name}" database; point DATABASE_URL at a database of its own.`);
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  });
}

/** Creates the database `url` names when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  await onMaintenance(url, async (admin, name) => {
    const found = await admin`select 1 from pg_database where datname = ${name}`;
    if (found.length === 0) await admin.unsafe(`CREATE DATABASE "${name}"`);
  });
}

/**
 * The one reset of a database to migrated and empty (what `db:seed` and `fleet` start from):
 * recreate it, then apply every migration. Audit events are append-only, so nothing is emptied.
 */
export async function resetToMigrated(url: string): Promise<void> {
  await recreateDatabase(url);
  await migrateDatabase(url);
}
