/**
 * A per-transaction record of the rows each transaction wrote and the node rows it locked, for the
 * test of docs/product.md §7 "every mutating transaction touches one node's rows" (docs/scaling.md).
 *
 * Installed by a test into its own database, never by a migration: a row trigger on every table
 * logs `(transaction, table, operation, node id)` for each row written, and at commit a deferred
 * trigger adds the node rows the transaction holds a row lock on (`FOR UPDATE`, `FOR NO KEY
 * UPDATE`, the `FOR KEY SHARE` of a foreign-key check), read with `pgrowlocks`. The log is
 * transactional: what a transaction that rolls back wrote or locked vanishes with it — it changed
 * nothing, and under Citus it would have prepared nothing either.
 */
import type { Db, DbOrTx } from '@/db/client';
import { sql } from 'drizzle-orm';

/** One logged touch: `LOCK` rows come from the commit-time scan of row locks, the others from the row trigger. */
export type Touch = { id: number; xid: string; table: string; op: 'INSERT' | 'UPDATE' | 'DELETE' | 'LOCK'; nodeId: string | null };

/** A table whose rows belong to one node, and the column that names it (`nodes.id`, else `node_id`). */
export type NodeKeyedTable = { table: string; column: string };

const LOG = 'scaling_touches';
const NODE_TABLES = 'scaling_node_tables';

/**
 * The tables whose rows belong to a node (docs/product.md §7: node id is the shard key): every table
 * with a `node_id` column, and the tables its foreign keys from `node_id` point at, by the column
 * they reference (`nodes.id`). Read from the catalog, so a new table is covered without a word here.
 */
export async function findNodeKeyedTables(db: DbOrTx): Promise<NodeKeyedTable[]> {
  const rows = await db.execute<{ table: string; column: string }>(sql`
    select c.table_name as "table", c.column_name as "column"
    from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.column_name = 'node_id'
      and c.table_name not in (${LOG}, ${NODE_TABLES})
    union
    select ref.relname, refcol.attname
    from pg_constraint k
    join pg_class src on src.oid = k.conrelid
    join pg_namespace ns on ns.oid = src.relnamespace and ns.nspname = 'public'
    join pg_class ref on ref.oid = k.confrelid
    cross join lateral unnest(k.conkey, k.confkey) as pair(src_att, ref_att)
    join pg_attribute srccol on srccol.attrelid = k.conrelid and srccol.attnum = pair.src_att
    join pg_attribute refcol on refcol.attrelid = k.confrelid and refcol.attnum = pair.ref_att
    where k.contype = 'f' and srccol.attname = 'node_id'
    order by 1`);
  return [...rows];
}

/** Every table of the schema the product owns (`public`, docs/product.md §7), the log's own excepted. */
export async function findTables(db: DbOrTx): Promise<string[]> {
  const rows = await db.execute<{ table: string }>(sql`
    select table_name as "table" from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in (${LOG}, ${NODE_TABLES})
    order by 1`);
  return rows.map((r) => r.table);
}

/**
 * Installs the log on every table of `public` (docs/product.md §7; see the module comment). Needs
 * the `pgrowlocks` extension (contrib, as `pg_trgm` and `btree_gist` the migrations need).
 * @returns the node-keyed tables it watches for locks.
 */
export async function installTouchLog(db: Db): Promise<NodeKeyedTable[]> {
  const nodeTables = await findNodeKeyedTables(db);
  const tables = await findTables(db);
  const statements = [
    `create extension if not exists pgrowlocks`,
    `create table ${LOG} (id bigserial primary key, xid xid8 not null default pg_current_xact_id(), tbl text not null, op text not null, node_id text)`,
    `create table ${NODE_TABLES} (tbl text primary key, col text not null)`,
    // Both images of an updated row: a row moved from one node to another touched both.
    `create function scaling_touch_row() returns trigger language plpgsql as $fn$
     declare col text := tg_argv[0];
     begin
       if tg_op in ('UPDATE', 'DELETE') then
         insert into ${LOG} (tbl, op, node_id) values (tg_table_name, tg_op, case when col = '' then null else to_jsonb(old) ->> col end);
       end if;
       if tg_op in ('INSERT', 'UPDATE') then
         insert into ${LOG} (tbl, op, node_id) values (tg_table_name, tg_op, case when col = '' then null else to_jsonb(new) ->> col end);
       end if;
       return null;
     end $fn$`,
    // At commit, once per transaction: the node rows it holds a row lock on. pgrowlocks lists the
    // rows locked by transactions in progress, this one's included; a locker is this transaction
    // when it is one of the ids this backend holds (its own, and its open subtransactions'). A
    // subtransaction that ended — a released savepoint — no longer holds its id, and pgrowlocks
    // names no backend for it (pid 0): such a row is this transaction's exactly when this
    // transaction can lock it FOR UPDATE without waiting (no other transaction may hold any lock
    // on a row it can; a transaction never waits on its own locks).
    `create function scaling_touch_locks() returns trigger language plpgsql as $fn$
     declare t record; r record; mine xid[]; node text;
     begin
       if current_setting('scaling.locks_logged', true) = 'on' then return null; end if;
       perform set_config('scaling.locks_logged', 'on', true);
       select array_agg(l.transactionid) into mine from pg_locks l
         where l.locktype = 'transactionid' and l.pid = pg_backend_pid() and l.granted and l.mode = 'ExclusiveLock';
       for t in select tbl, col from ${NODE_TABLES} loop
         for r in execute format('select locked_row, xids && $1 as mine, 0 = any(pids) as unowned from pgrowlocks(%L)', t.tbl) using mine loop
           node := null;
           if r.mine then
             execute format('select %I from %I where ctid = $1', t.col, t.tbl) into node using r.locked_row;
           elsif r.unowned then
             begin
               execute format('select %I from %I where ctid = $1 for update nowait', t.col, t.tbl) into node using r.locked_row;
             exception when lock_not_available then
               node := null;
             end;
           end if;
           if node is not null then
             insert into ${LOG} (tbl, op, node_id) values (t.tbl, 'LOCK', node);
           end if;
         end loop;
       end loop;
       return null;
     end $fn$`,
    `create constraint trigger scaling_touch_locks after insert on ${LOG} deferrable initially deferred for each row execute function scaling_touch_locks()`,
  ];
  for (const s of statements) await db.execute(sql.raw(s));
  const columnOf = new Map(nodeTables.map((t) => [t.table, t.column]));
  for (const t of nodeTables) await db.execute(sql`insert into ${sql.raw(NODE_TABLES)} (tbl, col) values (${t.table}, ${t.column})`);
  for (const table of tables) {
    const column = columnOf.get(table) ?? '';
    await db.execute(
      sql.raw(`create trigger scaling_touch after insert or update or delete on "${table}" for each row execute function scaling_touch_row('${column}')`),
    );
  }
  return nodeTables;
}

/** The id of the latest touch logged (0 for none): touches after it are what came next (docs/product.md §7). */
export async function lastTouchId(db: DbOrTx): Promise<number> {
  const [row] = await db.execute<{ id: string | null }>(sql.raw(`select max(id) as id from ${LOG}`));
  return Number(row?.id ?? 0);
}

/** The touches logged after `afterId` and up to `uptoId`, in order (docs/product.md §7: what each transaction touched). */
export async function readTouches(db: DbOrTx, afterId: number, uptoId: number = Number.MAX_SAFE_INTEGER): Promise<Touch[]> {
  const rows = await db.execute<{ id: string; xid: string; tbl: string; op: Touch['op']; node_id: string | null }>(
    sql`select id, xid::text as xid, tbl, op, node_id from ${sql.raw(LOG)} where id > ${afterId} and id <= ${uptoId} order by id`,
  );
  return rows.map((r) => ({ id: Number(r.id), xid: r.xid, table: r.tbl, op: r.op, nodeId: r.node_id }));
}
