'use client';

import { useState } from 'react';
import type { ConsoleClient } from '../live/trpc-client';
import { useLastGood } from '../live/use-last-good';
import { useRefreshPage } from '../live/use-refresh-page';
import { useServerCall } from '../live/use-server-call';
import { StaleBanner } from '../live/stale-banner';
import { errorMessage } from '../problem-words';
import type { Fetched, LockedSignIn } from '../trpc-types';
import { DataTable, type Column } from '../ui/data-table';
import { offers } from '../offers';
import { Time } from '../time-zone';

const unlock = (client: ConsoleClient, input: { userId: string }) => client.signIns.unlock.mutate(input);

const scopeText = { account: 'Unknown browsers', device: 'One known browser' } as const;

/**
 * Locked sign-ins (docs/product.md §9.3 "Unlock"), the operator's page: each known account whose
 * sign-in is locked — for browsers it does not know, or one of its own browsers — with the
 * failures that led to it and when it ends, and **Unlock**, which lifts every lock of the account
 * (audited as `sign_in.unlock`) and says what it did.
 */
export function LockedSignInsView(props: { locked: Fetched<{ items: LockedSignIn[] }> }) {
  const locked = useLastGood(props.locked, '');
  const call = useServerCall(unlock);
  const refresh = useRefreshPage();
  const [done, setDone] = useState<string | null>(null);
  const columns: readonly Column<LockedSignIn>[] = [
    { key: 'email', header: 'Account', cell: (r) => <span className="font-medium">{r.email}</span> },
    // The name is the first to go on a narrow screen: the email names the account already.
    {
      key: 'name',
      header: 'Name',
      className: 'hidden py-2 pr-4 text-ink-3 sm:table-cell',
      headerClassName: 'hidden py-2 pr-4 font-medium sm:table-cell',
      cell: (r) => r.name,
    },
    { key: 'scope', header: 'Locked for', className: 'py-2 pr-4 text-ink-3', cell: (r) => scopeText[r.scope] },
    { key: 'failures', header: 'Failures', className: 'py-2 pr-4 tabular-nums', cell: (r) => r.failures },
    { key: 'until', header: 'Until', className: 'py-2 pr-4 text-ink-3', cell: (r) => <Time iso={r.lockedUntil} /> },
    {
      key: 'action',
      header: <span className="sr-only">Action</span>,
      className: 'py-2 text-right',
      cell: (r) => (
        <button
          type="button"
          disabled={call.pending}
          aria-label={`Unlock ${r.email}`}
          {...offers('sign-ins.unlock')}
          className="rounded-md border border-line-strong px-3 py-1 text-sm hover:bg-surface-2 disabled:opacity-50"
          onClick={() => {
            setDone(null);
            call
              .run({ userId: r.userId })
              .then(async (out) => {
                setDone(out.unlocked.length ? `Unlocked ${out.email}: it may sign in from any browser again.` : `${out.email} was no longer locked.`);
                await refresh();
              })
              .catch(() => {}); // shown from call.error
          }}
        >
          Unlock
        </button>
      ),
    },
  ];
  const rows = locked.data?.items ?? [];
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold" {...offers('sign-ins.page')}>
          Locked sign-ins
        </h1>
        <p className="text-sm text-ink-3">
          Accounts refused after too many failed sign-ins. A lock on an account refuses only browsers it has not signed in with before; its own browsers keep
          their own count.
        </p>
      </div>
      {done && (
        <p role="status" className="rounded-md bg-ok-soft p-3 text-sm text-ok-ink">
          {done}
        </p>
      )}
      {call.error !== null && (
        <p role="alert" className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">
          {errorMessage(call.error)}
        </p>
      )}
      {locked.error && locked.data && <StaleBanner error={locked.error} what="the locked sign-ins" />}
      {locked.error && !locked.data && <p className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">{locked.error}</p>}
      <div className="overflow-x-auto rounded-xl border border-line bg-surface px-4 shadow-sm">
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(r) => `${r.userId}:${r.scope}`}
          rowAttr="locked-sign-in"
          testId="locked-sign-ins"
          empty={locked.data ? 'No account is locked.' : 'Nothing to show.'}
        />
      </div>
    </div>
  );
}
