import { memberInvites } from '@/db/schema';
import { and, eq, isNull } from 'drizzle-orm';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { notFound } from '../errors';
import { newId } from '../ids';
import { lockOrg } from '../orgs/internal';
import { invitesVisibleTo } from '../policy';
import { hashInviteSecret, INVITE_PATH, INVITE_TTL_DAYS, newInviteSecret } from './internal';
import type { InviteMemberInput, RevokeInviteInput } from './schemas';
import type { CreatedInviteView, InviteView } from './view';

const DAY_MS = 86_400_000;

/**
 * Makes a single-use invitation to the acting org with `input.role` (docs/product.md §2 Members;
 * scope `members:manage`): a link holding 256 random bits, shown this once to the admin, stored as
 * its SHA-256, lapsing 7 days on. Nobody is looked up by email, so no email leaks; whoever signs in
 * with the link joins. Under the org's lock, audited as `member.invite` (id and role).
 * @returns the invitation with `path`, the console path of the link (the secret's one showing).
 */
export async function inviteMember({ ctx, input }: { ctx: Ctx; input: InviteMemberInput }): Promise<CreatedInviteView> {
  return inTransaction(ctx, async (tx) => {
    await lockOrg(tx, ctx.orgId);
    const secret = newInviteSecret();
    const id = newId('inv');
    const expiresAt = new Date(ctx.now.getTime() + INVITE_TTL_DAYS * DAY_MS);
    const createdByUserId = ctx.actor.kind === 'user' ? ctx.actor.userId : null;
    await tx
      .insert(memberInvites)
      .values({ id, orgId: ctx.orgId, role: input.role, secretHash: hashInviteSecret(secret), createdByUserId, createdAt: ctx.now, expiresAt });
    await writeAuditEvent(tx, ctx, { action: 'member.invite', unitIds: [], details: { inviteId: id, role: input.role } });
    return { id, role: input.role, createdAt: ctx.now.toISOString(), expiresAt: expiresAt.toISOString(), path: `${INVITE_PATH}/${secret}` };
  });
}

/**
 * Withdraws an open invitation of the acting org (docs/product.md §2 Members; scope
 * `members:manage`): its link stops working at once. Withdrawing one already spent or withdrawn
 * changes and writes nothing. Under the org's lock; audited as `member.invite` with
 * `withdrawn: true`, so one action names every change of an invitation.
 * @param input.inviteId an invitation of the acting org.
 * @returns the invitation.
 * @throws DomainError not_found (no such invitation of this org).
 */
export async function revokeInvite({ ctx, input }: { ctx: Ctx; input: RevokeInviteInput }): Promise<InviteView> {
  return inTransaction(ctx, async (tx) => {
    await lockOrg(tx, ctx.orgId);
    const [row] = await tx
      .select()
      .from(memberInvites)
      .where(and(invitesVisibleTo(ctx), eq(memberInvites.id, input.inviteId)));
    if (!row) throw notFound(`Invitation "${input.inviteId}"`);
    if (!row.revokedAt && !row.acceptedAt) {
      await tx
        .update(memberInvites)
        .set({ revokedAt: ctx.now })
        .where(and(eq(memberInvites.id, row.id), isNull(memberInvites.revokedAt)));
      await writeAuditEvent(tx, ctx, { action: 'member.invite', unitIds: [], details: { inviteId: row.id, role: row.role, withdrawn: true } });
    }
    return { id: row.id, role: row.role, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString() };
  });
}
