import type { Db } from '@/db/client';
import { memberInvites, memberships } from '@/db/schema';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import type { Ctx } from '../context';
import { lockOrg } from '../orgs/internal';
import { hashInviteSecret } from './internal';

/** What accepting an invitation came to. */
export type AcceptedInvite = { outcome: 'joined' | 'already_member'; orgId: string } | { outcome: 'invalid' };

/**
 * Accepts an invitation link (docs/product.md §2 Members) for the signed-in user `userId`: the
 * first account to open a live link joins the org with the invitation's role, and the link is
 * spent. A link unknown, spent, withdrawn or past its 7 days is `invalid`, all alike, so the
 * answer tells nothing of other invitations. A member already keeps their role (the link stays
 * unspent for the person it was meant for). Not an operation of the API: the person acts for
 * themself, not for an org they belong to, so it is the invite page's own step (app/invite).
 * One transaction under the org's lock (taken after finding the invitation by its hash, then
 * re-read under it); audited as `member.join`, acting as the org joined.
 * @returns joined, already_member, or invalid.
 */
export async function acceptInvite(db: Db, input: { userId: string; secret: string }): Promise<AcceptedInvite> {
  // Not the shape of any secret we hand out: no lookup at all.
  if (!/^[A-Za-z0-9_-]{43}$/.test(input.secret)) return { outcome: 'invalid' };
  const hash = hashInviteSecret(input.secret);
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ orgId: memberInvites.orgId }).from(memberInvites).where(eq(memberInvites.secretHash, hash));
    if (!found) return { outcome: 'invalid' as const };
    await lockOrg(tx, found.orgId);
    const [invite] = await tx
      .select()
      .from(memberInvites)
      .where(
        and(eq(memberInvites.secretHash, hash), isNull(memberInvites.acceptedAt), isNull(memberInvites.revokedAt), gt(memberInvites.expiresAt, sql`now()`)),
      );
    if (!invite) return { outcome: 'invalid' as const };
    const inserted = await tx
      .insert(memberships)
      .values({ userId: input.userId, orgId: invite.orgId, role: invite.role })
      .onConflictDoNothing()
      .returning({ userId: memberships.userId });
    if (inserted.length === 0) return { outcome: 'already_member' as const, orgId: invite.orgId };
    const [clock] = await tx.execute<{ now: string }>(sql`select now()::text as now`);
    await tx
      .update(memberInvites)
      .set({ acceptedAt: sql`now()`, acceptedByUserId: input.userId })
      .where(eq(memberInvites.id, invite.id));
    // The joiner acts as the org they joined, in its console.
    const ctx: Ctx = {
      orgId: invite.orgId,
      actor: { kind: 'user', userId: input.userId },
      via: 'console',
      role: invite.role,
      db: tx,
      now: new Date(clock!.now),
    };
    await writeAuditEvent(tx, ctx, { action: 'member.join', unitIds: [], details: { inviteId: invite.id, userId: input.userId, role: invite.role } });
    return { outcome: 'joined' as const, orgId: invite.orgId };
  });
}
