import type { DbOrTx } from '@/db/client';
import { getDb } from '@/db/client';
import { memberships, orgs, users } from '@/db/schema';
import { asc, eq } from 'drizzle-orm';
import { cookies } from 'next/headers';
import type { Principal } from '../context';
import { auth } from './config';

/** The cookie that remembers the acting org of a console user (SPEC §2 org switcher). */
export const ACTING_ORG_COOKIE = 'gpu_acting_org';

export type ConsoleSession = {
  principal: Principal;
  user: { id: string; email: string; name: string };
  orgs: { id: string; name: string }[];
};

/**
 * The signed-in user's orgs, and the acting org: the remembered one when the user still
 * belongs to it, else the first by id. Pure lookup; no cookie is written here.
 */
export async function resolveConsoleSession(db: DbOrTx, userId: string, rememberedOrgId: string | undefined): Promise<ConsoleSession | null> {
  const [user] = await db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
  if (!user) return null;
  const mine = await db
    .select({ id: orgs.id, name: orgs.name })
    .from(memberships)
    .innerJoin(orgs, eq(orgs.id, memberships.orgId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(orgs.id));
  const acting = mine.find((o) => o.id === rememberedOrgId) ?? mine[0];
  if (!acting) return null;
  return { principal: { orgId: acting.id, actor: { kind: 'user', userId: user.id }, via: 'console' }, user, orgs: mine };
}

/** The console principal of the current request (session cookie + acting-org cookie), or null. */
export async function getConsoleSession(): Promise<ConsoleSession | null> {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) return null;
  const remembered = (await cookies()).get(ACTING_ORG_COOKIE)?.value;
  return resolveConsoleSession(getDb(), userId, remembered);
}
