import { getDb } from '@/db/client';
import { cookies } from 'next/headers';
import { cache } from 'react';
import { toServiceUnavailable } from '../errors';
import { auth } from './config';
import { buildCookieOptions } from './cookie-options';
import { revokeUserDevices } from './known-devices';
import { acceptInvite, type AcceptedInvite } from '../members/accept';
import { isMemberOf, isLiveSession, resolveConsoleSession, revokeSession, revokeUserSessions, type ConsoleSession } from './sessions';
import { getSiteUrl } from './site';

/**
 * The console's request-bound session functions (React Server Components, server actions,
 * the tRPC HTTP context): who is signed in, the org switcher, sign-out. The rules they apply
 * live in ./sessions.ts.
 */

/** The cookie that remembers the acting org of a console user (docs/product.md §2 org switcher). */
export const ACTING_ORG_COOKIE = 'gpu_acting_org';

/** How long the browser remembers the acting org. */
const ACTING_ORG_MAX_AGE_SECONDS = 365 * 24 * 3600;

/**
 * The console principal of the current request (session cookie + acting-org cookie), or
 * null. The one way to learn who is signed in: `auth()` alone only verifies the cookie's
 * signature, which outlives sign-out.
 */
export const getConsoleSession = cache(async (): Promise<ConsoleSession | null> => {
  // cache: the layout, the page's prefetch context and its actions read it once per request.
  const session = await auth();
  const userId = session?.user?.id;
  const sessionId = session?.sessionId;
  if (!userId || !sessionId) return null;
  const remembered = (await cookies()).get(ACTING_ORG_COOKIE)?.value;
  try {
    return await resolveConsoleSession(getDb(), { userId, sessionId }, remembered);
  } catch (e) {
    // The first query of every console page: with the database gone, the page's error
    // boundary (app/error.tsx) says so (the 503's digest survives production builds).
    throw toServiceUnavailable(e) ?? e;
  }
});

/**
 * The org switcher (docs/product.md §2): remembers `orgId` as the acting org of the signed-in user, in a
 * cookie with the console's cookie flags — only among the user's own orgs.
 * @returns `switched`; `not_member` (nothing changes); `signed_out` when there is no live session.
 */
export async function switchActingOrg(orgId: string): Promise<'switched' | 'not_member' | 'signed_out'> {
  const session = await getConsoleSession();
  if (!session) return 'signed_out';
  if (!isMemberOf(session, orgId)) return 'not_member';
  (await cookies()).set(ACTING_ORG_COOKIE, orgId, buildCookieOptions(await getSiteUrl(), ACTING_ORG_MAX_AGE_SECONDS));
  return 'switched';
}

/**
 * Accepts an invitation link (docs/product.md §2 Members) as the signed-in user — a live session,
 * though the user may belong to no org yet — and, when they joined, makes the org they joined
 * the acting one. Nothing happens without a live session.
 * @returns what accepting came to, or `signed_out`.
 */
export async function acceptConsoleInvite(secret: string): Promise<AcceptedInvite | { outcome: 'signed_out' }> {
  const session = await auth();
  const userId = session?.user?.id;
  const sessionId = session?.sessionId;
  if (!userId || !sessionId || !(await isLiveSession(getDb(), { userId, sessionId }))) return { outcome: 'signed_out' };
  const accepted = await acceptInvite(getDb(), { userId, secret });
  if (accepted.outcome === 'joined')
    (await cookies()).set(ACTING_ORG_COOKIE, accepted.orgId, buildCookieOptions(await getSiteUrl(), ACTING_ORG_MAX_AGE_SECONDS));
  return accepted;
}

/**
 * Ends the current request's session in PostgreSQL, so its cookie — wherever a copy is kept —
 * stops working. Call before Auth.js's `signOut()` clears the cookie: a failure here then
 * fails the sign-out visibly instead of leaving a live session behind a cleared cookie.
 */
export async function endConsoleSession(): Promise<void> {
  // auth(), not getConsoleSession(): a session is ended even when its user lost every org.
  const sessionId = (await auth())?.sessionId;
  if (sessionId) await revokeSession(getDb(), sessionId);
}

/**
 * "Sign out everywhere": ends every session of the signed-in user, on every browser and app
 * instance, and forgets every browser the account knew (docs/product.md §9.3 "Known devices"),
 * in one transaction. Needs a live session: a copy of a signed-out cookie cannot sign its user out.
 */
export async function endAllConsoleSessions(): Promise<void> {
  const session = await getConsoleSession();
  if (!session) return;
  await getDb().transaction(async (tx) => {
    await revokeUserSessions(tx, session.user.id);
    await revokeUserDevices(tx, session.user.id);
  });
}
