import { memberships } from '@/db/schema';
import { writeAuditEvent } from '../audit/write';
import { inTransaction, type Ctx } from '../context';
import { assertNotLastAdmin, membershipOf, openMember } from './internal';
import type { ChangeMemberRoleInput } from './schemas';

/**
 * Changes a member's role in the acting org (docs/product.md §2 Members; scope `members:manage`,
 * so only its admins). It holds from the member's next request: the role is read with the
 * session on every request, so their open page stops offering what the new role does not allow at
 * its next refresh. Under the org's lock, one transaction, audited as `member.role` (from, to).
 * Setting the role a member already has changes and writes nothing.
 * @param input.userId a member of the acting org. @param input.role the new role.
 * @returns `{ userId, role }`.
 * @throws DomainError not_found (not a member of this org), last_admin (409: demoting the org's only admin).
 */
export async function changeMemberRole({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: ChangeMemberRoleInput;
}): Promise<{ userId: string; role: ChangeMemberRoleInput['role'] }> {
  const answer = { userId: input.userId, role: input.role };
  return inTransaction(ctx, async (tx) => {
    const from = await openMember(tx, ctx, input.userId);
    if (from === input.role) return answer;
    if (from === 'admin') await assertNotLastAdmin(tx, ctx, 'demoted');
    await tx.update(memberships).set({ role: input.role }).where(membershipOf(ctx, input.userId));
    await writeAuditEvent(tx, ctx, { action: 'member.role', unitIds: [], details: { userId: input.userId, from, to: input.role } });
    return answer;
  });
}
