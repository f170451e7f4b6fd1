import { membershipRoles } from '@/db/schema';
import { z } from 'zod';
import { Id } from '../ids';

/** A role of a membership (docs/product.md §2 Roles). */
export const MembershipRoleInput = z.enum(membershipRoles).meta({ description: '`admin`, `member` or `viewer` (docs/product.md §2 Roles).' });

/** Change one member's role in the acting org. */
export const ChangeMemberRoleInput = z.object({ userId: Id, role: MembershipRoleInput }).strict();
export type ChangeMemberRoleInput = z.infer<typeof ChangeMemberRoleInput>;

/** Remove one member from the acting org. */
export const RemoveMemberInput = z.object({ userId: Id }).strict();
export type RemoveMemberInput = z.infer<typeof RemoveMemberInput>;

/** Invite someone to the acting org with a role: the link carries the invitation, not an email. */
export const InviteMemberInput = z.object({ role: MembershipRoleInput }).strict();
export type InviteMemberInput = z.infer<typeof InviteMemberInput>;

/** Withdraw an open invitation. */
export const RevokeInviteInput = z.object({ inviteId: Id }).strict();
export type RevokeInviteInput = z.infer<typeof RevokeInviteInput>;
