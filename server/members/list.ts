import { memberInvites, memberships, sessions, users } from '@/db/schema';
import { and, asc, eq, gt, isNull, max, sql } from 'drizzle-orm';
import type { Ctx } from '../context';
import { invitesVisibleTo, membersVisibleTo } from '../policy';
import type { NoInput } from '../operation';
import type { MembersView } from './view';

/**
 * The acting org's members with their role and last sign-in, and its open invitations, for its
 * admins (docs/product.md §2 Members; the operation's scope `members:manage`). Last sign-in is the
 * newest kept session of the person (sign-ins are the person's, whatever org they act as; sessions
 * of the last 12 hours and the newest expired one are kept). Invitations show their role and
 * times, never their secret (kept only as a hash).
 * @returns `{ members, invites }`: members by name then id, invitations newest first.
 */
export async function listMembers({ ctx }: { ctx: Ctx; input: NoInput }): Promise<MembersView> {
  const [members, invites] = await Promise.all([
    ctx.db
      .select({ userId: users.id, name: users.name, email: users.email, role: memberships.role, lastSignInAt: max(sessions.createdAt) })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .leftJoin(sessions, eq(sessions.userId, users.id))
      .where(membersVisibleTo(ctx))
      .groupBy(users.id, users.name, users.email, memberships.role)
      .orderBy(asc(users.name), sql`${users.id} collate "C"`),
    ctx.db
      .select()
      .from(memberInvites)
      .where(and(invitesVisibleTo(ctx), isNull(memberInvites.acceptedAt), isNull(memberInvites.revokedAt), gt(memberInvites.expiresAt, ctx.now)))
      .orderBy(sql`${memberInvites.createdAt} desc`, asc(memberInvites.id)),
  ]);
  return {
    members: members.map((m) => ({
      userId: m.userId,
      name: m.name,
      email: m.email,
      role: m.role,
      ...(m.lastSignInAt ? { lastSignInAt: new Date(m.lastSignInAt).toISOString() } : {}),
    })),
    invites: invites.map((i) => ({ id: i.id, role: i.role, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() })),
  };
}
