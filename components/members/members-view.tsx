'use client';

import { useState } from 'react';
import type { ConsoleClient } from '../live/trpc-client';
import { useRefreshPage } from '../live/use-refresh-page';
import { useServerCall } from '../live/use-server-call';
import { useLastGood } from '../live/use-last-good';
import { StaleBanner } from '../live/stale-banner';
import { offers } from '../offers';
import { errorMessage } from '../problem-words';
import { Time } from '../time-zone';
import type { CreatedInvite, Fetched, InviteView, MemberView, MembersPage } from '../trpc-types';
import { DataTable, type Column } from '../ui/data-table';
import { buttonStyles } from '../ui/modal';
import { useHydrated } from '../ui/use-hydrated';

type Role = MemberView['role'];

/** The roles, each in the words an admin picks by (docs/product.md §2 Roles). */
const roles: readonly { role: Role; description: string }[] = [
  { role: 'admin', description: 'everything the org may do, plus members, API keys and webhooks' },
  { role: 'member', description: 'every action the org may take; no members, keys or webhooks' },
  { role: 'viewer', description: 'sees what the org sees, takes no action' },
];

const changeRole = (client: ConsoleClient, input: { userId: string; role: Role }) => client.members.changeRole.mutate(input);
const removeMember = (client: ConsoleClient, input: { userId: string }) => client.members.remove.mutate(input);
const inviteMember = (client: ConsoleClient, input: { role: Role }) => client.members.invite.mutate(input);
const revokeInvite = (client: ConsoleClient, input: { inviteId: string }) => client.members.revokeInvite.mutate(input);

/** A role picker that changes the member's role at once (the select is the action). */
function RoleSelect({ member, onChange, disabled }: { member: MemberView; onChange: (role: Role) => void; disabled: boolean }) {
  return (
    <label className="text-sm">
      <span className="sr-only">Role of {member.name}</span>
      <select
        value={member.role}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value as Role)}
        className="rounded-md border border-line-strong bg-surface px-2 py-1 text-sm"
        {...offers('members.change-role')}
      >
        {roles.map((r) => (
          <option key={r.role} value={r.role}>
            {r.role}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Remove…, then a second button that says whom: a removal ends the member's access at once. */
function RemoveButton({ member, onRemove, disabled }: { member: MemberView; onRemove: () => void; disabled: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" disabled={disabled} onClick={() => setAsking(true)} className={buttonStyles.danger} {...offers('members.remove')}>
        Remove…
      </button>
    );
  return (
    <span className="flex flex-wrap justify-end gap-2">
      <button type="button" disabled={disabled} onClick={onRemove} className={buttonStyles.danger}>
        Remove {member.name}
      </button>
      <button type="button" onClick={() => setAsking(false)} className={buttonStyles.secondary}>
        Keep
      </button>
    </span>
  );
}

/**
 * The members page (docs/product.md §2 Members, §6): the acting org's members with their role and
 * last sign-in — an admin changes a role or removes a member —, an invitation link made for a role
 * (shown once), and the open invitations, each of which can be withdrawn. Every change goes to the
 * server and the page renders again from what it answers; a refusal (the last admin) shows above.
 */
export function MembersView(props: { page: Fetched<MembersPage>; orgName: string; meId: string }) {
  const page = useLastGood(props.page, '');
  const refreshPage = useRefreshPage();
  const hydrated = useHydrated();
  const change = useServerCall(changeRole);
  const remove = useServerCall(removeMember);
  const invite = useServerCall(inviteMember);
  const withdraw = useServerCall(revokeInvite);
  const [inviteRole, setInviteRole] = useState<Role>('member');
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const busy = !hydrated || change.pending || remove.pending || invite.pending || withdraw.pending;
  const problem = [change.error, remove.error, invite.error, withdraw.error].find((e) => e !== null);

  const after = (what: string) => () => {
    setDone(what);
    return refreshPage();
  };
  const columns: readonly Column<MemberView>[] = [
    {
      key: 'name',
      header: 'Member',
      cell: (m) => (
        <span>
          <span className="font-medium">{m.name}</span>
          {m.userId === props.meId && <span className="ml-1 text-xs text-ink-4">(you)</span>}
          <span className="block text-xs text-ink-3 [overflow-wrap:anywhere]">{m.email}</span>
        </span>
      ),
    },
    {
      key: 'role',
      header: 'Role',
      cell: (m) => (
        <RoleSelect
          member={m}
          disabled={busy}
          onChange={(role) => {
            change
              .run({ userId: m.userId, role })
              .then(after(`${m.name} is now ${role === 'admin' ? 'an' : 'a'} ${role} of ${props.orgName}.`))
              .catch(() => {});
          }}
        />
      ),
    },
    {
      key: 'signedIn',
      header: 'Last sign-in',
      className: 'py-2 pr-4 text-ink-3',
      cell: (m) => (m.lastSignInAt ? <Time iso={m.lastSignInAt} relative /> : <span className="text-ink-4">none kept</span>),
    },
    {
      key: 'remove',
      header: <span className="sr-only">Remove</span>,
      className: 'py-2 text-right',
      cell: (m) => (
        <RemoveButton
          member={m}
          disabled={busy}
          onRemove={() => {
            remove
              .run({ userId: m.userId })
              .then(after(`${m.name} is no longer a member of ${props.orgName}.`))
              .catch(() => {});
          }}
        />
      ),
    },
  ];
  const inviteColumns: readonly Column<InviteView>[] = [
    { key: 'role', header: 'Role', cell: (i) => i.role },
    { key: 'created', header: 'Made', className: 'py-2 pr-4 text-ink-3', cell: (i) => <Time iso={i.createdAt} relative /> },
    { key: 'expires', header: 'Works until', className: 'py-2 pr-4 text-ink-3', cell: (i) => <Time iso={i.expiresAt} /> },
    {
      key: 'withdraw',
      header: <span className="sr-only">Withdraw</span>,
      className: 'py-2 text-right',
      cell: (i) => (
        <button
          type="button"
          disabled={busy}
          onClick={() => {
            withdraw
              .run({ inviteId: i.id })
              .then(after(`The ${i.role} invitation no longer works.`))
              .catch(() => {});
          }}
          className={buttonStyles.secondary}
          {...offers('members.revoke-invite')}
        >
          Withdraw
        </button>
      ),
    },
  ];
  const link = created && typeof window !== 'undefined' ? `${window.location.origin}${created.path}` : created?.path;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold" {...offers('members.page')}>
          Members of {props.orgName}
        </h1>
        <p className="text-sm text-ink-3">Who may act as {props.orgName}, and what each may do. Only admins see this page.</p>
      </div>
      {page.error && page.data && <StaleBanner error={page.error} what="the members" />}
      {page.error && !page.data && <p className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">{page.error}</p>}
      {problem !== undefined && problem !== null && (
        <p role="alert" className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">
          {errorMessage(problem)}
        </p>
      )}
      {done && problem === undefined && (
        <p role="status" data-testid="members-outcome" className="rounded-md bg-surface-2 p-3 text-sm text-ink-2">
          {done}
        </p>
      )}
      <dl className="grid gap-1 text-sm text-ink-3 sm:grid-cols-3">
        {roles.map((r) => (
          <div key={r.role}>
            <dt className="inline font-medium text-ink-2">{r.role}</dt> <dd className="inline">— {r.description}</dd>
          </div>
        ))}
      </dl>
      <div className="overflow-x-auto rounded-xl border border-line bg-surface px-4 shadow-sm">
        <DataTable columns={columns} rows={page.data?.members ?? []} rowKey={(m) => m.userId} rowAttr="member-id" testId="member-table" empty="No members." />
      </div>

      <section aria-labelledby="invite-title" className="space-y-3 rounded-xl border border-line bg-surface p-4 shadow-sm">
        <h2 id="invite-title" className="font-semibold">
          Invite someone
        </h2>
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            invite
              .run({ role: inviteRole })
              .then((made) => {
                setCreated(made);
                return after(`An invitation link for a ${made.role} was made.`)();
              })
              .catch(() => {});
          }}
        >
          <label className="text-sm font-medium text-ink-2">
            Role
            <select
              value={inviteRole}
              onChange={(e) => setInviteRole(e.target.value as Role)}
              className="mt-1 block rounded-md border border-line-strong bg-surface px-2 py-1 text-sm font-normal"
            >
              {roles.map((r) => (
                <option key={r.role} value={r.role}>
                  {r.role}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy} className={buttonStyles.primary} {...offers('members.invite')}>
            {invite.pending ? 'Making…' : 'Make an invitation link'}
          </button>
        </form>
        <p className="text-sm text-ink-3">
          Send the link to the person yourself: it works once, for 7 days, for whoever signs in with it. It is shown only now.
        </p>
        {created && (
          <p data-testid="invite-link" className="rounded-md border border-line bg-surface-2 p-3 font-mono text-sm [overflow-wrap:anywhere]">
            {link}
          </p>
        )}
        {(page.data?.invites.length ?? 0) > 0 && (
          <div className="overflow-x-auto">
            <DataTable columns={inviteColumns} rows={page.data?.invites ?? []} rowKey={(i) => i.id} rowAttr="invite-id" testId="invite-table" empty="" />
          </div>
        )}
      </section>
    </div>
  );
}
