/**
 * The acting org's members and invitations (docs/product.md §2 Members): one declaration each
 * (server/operation.ts). Console only: people manage people, and no API key holds
 * `members:manage`, so none could call them.
 */
import { NoInput, operation, type OperationGroup } from '../operation';
import { changeMemberRole } from './change-role';
import { inviteMember, revokeInvite } from './invite';
import { listMembers } from './list';
import { removeMember } from './remove';
import { ChangeMemberRoleInput, InviteMemberInput, RemoveMemberInput, RevokeInviteInput } from './schemas';

/** Why they are not on the public API. */
const consoleOnly = 'people manage people in the console: no API key holds members:manage';

export const memberOperations = {
  list: operation({ verb: listMembers, input: NoInput, kind: 'query', scope: 'members:manage', console: 'members.page', rest: { none: consoleOnly } }),
  changeRole: operation({
    verb: changeMemberRole,
    input: ChangeMemberRoleInput,
    kind: 'mutation',
    scope: 'members:manage',
    console: 'members.change-role',
    rest: { none: consoleOnly },
  }),
  remove: operation({
    verb: removeMember,
    input: RemoveMemberInput,
    kind: 'mutation',
    scope: 'members:manage',
    console: 'members.remove',
    rest: { none: consoleOnly },
  }),
  invite: operation({
    verb: inviteMember,
    input: InviteMemberInput,
    kind: 'mutation',
    scope: 'members:manage',
    console: 'members.invite',
    rest: { none: consoleOnly },
  }),
  revokeInvite: operation({
    verb: revokeInvite,
    input: RevokeInviteInput,
    kind: 'mutation',
    scope: 'members:manage',
    console: 'members.revoke-invite',
    rest: { none: consoleOnly },
  }),
} satisfies OperationGroup;
