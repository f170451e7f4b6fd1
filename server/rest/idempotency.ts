import type { Db, DbOrTx } from '@/db/client';
import { idempotencyRecords } from '@/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { DomainError } from '../errors';
import { notifyAfterCommit } from '../events/notify';

/** An answer as stored for replay: status and body (`headers`, e.g. a 429's Retry-After, are never stored). */
export type StoredResponse = { status: number; body: string; headers?: Record<string, string> };
export type IdempotencyScope = { orgId: string; method: string; path: string; key: string };

/** How long a key is remembered: its first request's answer is replayed for 24 h, never after. */
export const TTL_MS = 24 * 60 * 60 * 1000;
/** Expired records each write purges at most (docs/product.md §5 Idempotency, §8 R6). */
export const PURGE_BATCH = 100;

/** Fingerprint of what the key promises: the same key must come with the same request. */
export function requestFingerprint(search: string, body: string): string {
  return createHash('sha256').update(search).update('\n').update(body).digest('hex');
}

/**
 * Runs `execute` at most once per (acting org, method, path, key) within 24 h and replays its
 * stored response otherwise (docs/product.md §5 Idempotency).
 *
 * The record is written in the same transaction as the effect, so a crash leaves neither. A
 * transaction-scoped advisory lock on the scope tells a duplicate in flight (409
 * `idempotency_in_progress`) from a finished one, across app instances. A record older than
 * 24 h is never replayed (the key starts afresh), and every request that writes a record also
 * purges at most 100 such expired ones, whoever's, with `FOR UPDATE SKIP LOCKED` — so the table
 * holds about a day of records however seldom a key is reused, and no writer waits on a purge.
 * @param execute runs the request on `tx`; it must turn domain errors into stored responses
 *   (any status below 500) and throw only for bugs, which roll everything back.
 * @param mode `read` for a request that writes nothing (a dry run): it runs first, on the pool
 *   (its own read-only snapshot), and the record is written after it; a duplicate racing it
 *   also runs, harmlessly, and the response stored first is the one both answer.
 * @returns the response and whether it was replayed.
 * @throws DomainError idempotency_in_progress, idempotency_key_reused (different request).
 */
export async function runIdempotent(
  db: Db,
  scope: IdempotencyScope,
  fingerprint: string,
  now: Date,
  execute: (tx: DbOrTx) => Promise<StoredResponse>,
  mode: 'read' | 'write' = 'write',
): Promise<StoredResponse & { replayed: boolean }> {
  const early = mode === 'read' ? await execute(db) : undefined;
  // The verb's events are told of once this transaction commits (server/events/notify.ts).
  return notifyAfterCommit(db, () =>
    db.transaction(async (tx) => {
      const lockKey = JSON.stringify([scope.orgId, scope.method, scope.path, scope.key]);
      const [lock] = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(hashtextextended(${lockKey}, 7)) as locked`);
      if (!lock?.locked) {
        throw new DomainError('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed; retry after it completes.');
      }
      const where = and(
        eq(idempotencyRecords.orgId, scope.orgId),
        eq(idempotencyRecords.method, scope.method),
        eq(idempotencyRecords.path, scope.path),
        eq(idempotencyRecords.key, scope.key),
      );
      const [existing] = await tx.select().from(idempotencyRecords).where(where);
      if (existing && now.getTime() - existing.createdAt.getTime() < TTL_MS) {
        if (existing.requestHash !== fingerprint) {
          throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request; use a new key for a new request.');
        }
        return { status: existing.status, body: existing.body, replayed: true };
      }
      if (existing) await tx.delete(idempotencyRecords).where(where);
      const response = early ?? (await execute(tx));
      // The record, and in the same statement the purge of a few expired ones (any org's): every
      // writer takes away at most PURGE_BATCH of them, oldest first, skipping rows another writer
      // is purging (or replacing) now, so no writer ever waits on another's purge.
      await tx.execute(sql`
      with purged as (
        delete from ${idempotencyRecords} where (org_id, method, path, key) in (
          select org_id, method, path, key from ${idempotencyRecords}
          where created_at <= ${new Date(now.getTime() - TTL_MS).toISOString()}::timestamptz
          order by created_at limit ${PURGE_BATCH} for update skip locked)
        returning 1)
      insert into ${idempotencyRecords} (org_id, method, path, key, request_hash, status, body, created_at)
      values (${scope.orgId}, ${scope.method}, ${scope.path}, ${scope.key}, ${fingerprint}, ${response.status}, ${response.body}, ${now.toISOString()}::timestamptz)`);
      // The first answer is what a replay will be: status and body only.
      return { status: response.status, body: response.body, replayed: false };
    }),
  );
}
