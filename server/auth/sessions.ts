import type { DbOrTx } from '@/db/client';
import { memberships, orgs, sessions, users, type MembershipRole } from '@/db/schema';
import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Principal } from '../context';
import { newId } from '../ids';
import { grantsOf, type OperationScope } from '../policy';

/**
 * Console sessions in PostgreSQL (db/schema/sessions.ts): the Auth.js JWT names a row here
 * and is honoured only while that row is live, so sign-out works on every app instance.
 * Times come from PostgreSQL's clock (docs/product.md §4: one clock).
 */

/** How long a console sign-in lasts: the session row and the JWT cookie that names it. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

export type ConsoleSession = {
  principal: Principal;
  /** The live `sessions` row the request's cookie names. */
  sessionId: string;
  user: { id: string; email: string; name: string };
  /** The user's orgs, each with the user's role in it (docs/product.md §2 Roles). */
  orgs: { id: string; name: string; role: MembershipRole }[];
  /**
   * What the role in the acting org lets the user call (server/policy.ts `grantsOf`): what the
   * console's header shows and offers by (its links, a viewer's hint), since pages hold no rule.
   */
  grants: readonly OperationScope[];
};

/**
 * Opens a console session for `userId` (at sign-in) and forgets the user's expired ones, so
 * the table holds at most the sign-ins of the last `SESSION_MAX_AGE_SECONDS` per user.
 * @returns the new session's id, which the JWT carries.
 */
export async function startSession(db: DbOrTx, userId: string): Promise<string> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, sql`now()`)));
  const id = newId('ses');
  await db.insert(sessions).values({ id, userId, createdAt: sql`now()`, expiresAt: sql`now() + make_interval(secs => ${SESSION_MAX_AGE_SECONDS})` });
  return id;
}

/**
 * The signed-in user's orgs, and the acting org: the remembered one when the user still
 * belongs to it, else the first by id — provided the session is live (not signed out, not
 * expired) and belongs to `userId`. One query: the session by primary key, joined to the
 * user's memberships (with the role in each). Pure lookup; no cookie is written here.
 * @returns null for a dead or foreign session, an unknown user or one without orgs.
 */
export async function resolveConsoleSession(
  db: DbOrTx,
  signedIn: { userId: string; sessionId: string },
  rememberedOrgId: string | undefined,
): Promise<ConsoleSession | null> {
  const rows = await db
    .select({ userId: users.id, email: users.email, name: users.name, orgId: orgs.id, orgName: orgs.name, role: memberships.role })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(orgs, eq(orgs.id, memberships.orgId))
    .where(and(eq(sessions.id, signedIn.sessionId), eq(sessions.userId, signedIn.userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(asc(orgs.id));
  const first = rows[0];
  if (!first) return null;
  const mine = rows.map((r) => ({ id: r.orgId, name: r.orgName, role: r.role }));
  const acting = mine.find((o) => o.id === rememberedOrgId) ?? mine[0]!;
  const user = { id: first.userId, email: first.email, name: first.name };
  // The role in the acting org comes with the membership the session is joined to (one query):
  // a changed role holds from the next request, a removed member acts as that org no more.
  const principal: Principal = { orgId: acting.id, actor: { kind: 'user', userId: user.id }, via: 'console', role: acting.role };
  return { principal, sessionId: signedIn.sessionId, user, orgs: mine, grants: grantsOf(principal) };
}

/** Whether the session names a live row (not signed out, not expired) of `userId`, whatever their orgs. */
export async function isLiveSession(db: DbOrTx, signedIn: { userId: string; sessionId: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, signedIn.sessionId), eq(sessions.userId, signedIn.userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)));
  return Boolean(row);
}

/** Whether the signed-in user belongs to `orgId`: the only orgs they may act as (docs/product.md §2). */
export function isMemberOf(session: ConsoleSession, orgId: string): boolean {
  return session.orgs.some((o) => o.id === orgId);
}

/** Ends one session (sign-out); its cookie stops working on every instance. Idempotent. */
export async function revokeSession(db: DbOrTx, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * Ends every live session of `userId` ("Sign out everywhere").
 * @returns how many sessions were still live.
 */
export async function revokeUserSessions(db: DbOrTx, userId: string): Promise<number> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return ended.length;
}
