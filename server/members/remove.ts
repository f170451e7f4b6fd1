import { memberships } from '@/db/schema';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { assertNotLastAdmin, membershipOf, openMember } from './internal';
import type { RemoveMemberInput } from './schemas';

/**
 * Removes a member from the acting org (docs/product.md §2 Members; scope `members:manage`). Their
 * sessions stop acting as the org at once: every console request reads the session joined to its
 * memberships, so the next one finds none for this org. API keys they created stay: keys belong to
 * the org. Under the org's lock, one transaction, audited as `member.remove`.
 * @param input.userId a member of the acting org (an admin may remove themself while another admin remains).
 * @returns `{ userId }`.
 * @throws DomainError not_found (not a member of this org), last_admin (409: the org's only admin).
 */
export async function removeMember({ ctx, input }: { ctx: Ctx; input: RemoveMemberInput }): Promise<{ userId: string }> {
  return inTransaction(ctx, async (tx) => {
    const role = await openMember(tx, ctx, input.userId);
    if (role === 'admin') await assertNotLastAdmin(tx, ctx, 'removed');
    await tx.delete(memberships).where(membershipOf(ctx, input.userId));
    await writeAuditEvent(tx, ctx, { action: 'member.remove', unitIds: [], details: { userId: input.userId, role } });
    return { userId: input.userId };
  });
}
