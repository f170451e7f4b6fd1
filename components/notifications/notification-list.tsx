'use client';

import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { formatCountdown } from '../countdown';
import { nodeHref, reservationHref, vmHref } from '../links';
import { StaleBanner } from '../live/stale-banner';
import { useLastGood } from '../live/use-last-good';
import { useRefreshPage } from '../live/use-refresh-page';
import { useServerCall } from '../live/use-server-call';
import { errorMessage } from '../problem-words';
import type { ConsoleClient } from '../live/trpc-client';
import type { NotificationView } from '../trpc-types';
import { DataTable, type Column } from '../ui/data-table';
import type { PageResult } from '../ui/paged-table';
import { UrlPager } from '../ui/url-pager';
import { offers } from '../offers';
import { Time } from '../time-zone';

/** Marks one notification read (its own org's: docs/product.md §2). */
const markNotificationRead = (client: ConsoleClient, input: { notificationId: string }) => client.audit.markNotificationRead.mutate(input);

const link = 'font-mono text-accent-ink hover:underline';

type Of<K extends NotificationView['kind']> = Extract<NotificationView, { kind: K }>;

/** A VM's own notification (reclaimed, a reclaim scheduled): the VM, and the node and units it runs on. */
const vmLink = (n: { details: { vmId: string } }) => (
  <Link href={vmHref(n.details.vmId)} className={link}>
    {n.details.vmId}
  </Link>
);
const vmWhere = (n: { details: { nodeId: string; unitIds: string[] } }) => (
  <>
    <Link href={nodeHref(n.details.nodeId)} className={link}>
      {n.details.nodeId}
    </Link>
    <div className="font-mono text-xs text-ink-4">{n.details.unitIds.join(', ')}</div>
  </>
);
const reasonGiven = (reason: string | undefined) =>
  reason ? <div className="text-ink-3">Reason given: “{reason}”</div> : <div className="text-ink-4">No reason given</div>;

/**
 * A scheduled reclaim's notice to a spot tenant (issue 22), by what changed: when the VM's units
 * are taken back and that it ends then, or that it keeps running. Never who holds the capacity,
 * the reservation or the schedule (the notice names none).
 */
function ReclaimNotice({ details: d }: { details: Of<'vm.reclaim_scheduled'>['details'] }) {
  const when = <Time iso={d.reclaimAt} />;
  const left = formatCountdown(d.reclaimAt);
  const coming = (its: string) => (
    <>
      {its} spot capacity will be reclaimed at {when}
      {left === 'due now' ? '' : ` (in ${left})`}, terminating the VM: save your work before then.
    </>
  );
  const words: Record<typeof d.change, ReactNode> = {
    scheduled: coming('Its'),
    rescheduled: (
      <>
        Rescheduled{d.previousAt && <> from {<Time iso={d.previousAt} />}</>}: {coming('its')}
      </>
    ),
    cancelled: <>The reclaim of its spot capacity planned for {when} is cancelled: the VM keeps running.</>,
    dropped: <>Its units are no longer in the reclaim planned for {when}: the VM keeps running.</>,
    lapsed: <>The reclaim of its spot capacity planned for {when} will not happen: the VM keeps running.</>,
  };
  return (
    // The countdown is of the clock of whoever renders it: the server's first HTML and the browser may differ by a minute.
    <div data-testid="reclaim-notice" suppressHydrationWarning>
      {words[d.change]}
    </div>
  );
}

/** What each kind of notification shows in the table: what it is about, where, and why. */
const kinds: {
  [K in NotificationView['kind']]: {
    subject: (n: Of<K>) => string;
    what: (n: Of<K>) => ReactNode;
    where: (n: Of<K>) => ReactNode;
    why: (n: Of<K>) => ReactNode;
  };
} = {
  'vm.reclaimed': {
    subject: (n) => n.details.vmId,
    what: vmLink,
    where: vmWhere,
    why: (n) => (
      <>
        <div>Terminated: its spot capacity was reclaimed</div>
        {reasonGiven(n.details.reason)}
      </>
    ),
  },
  'vm.reclaim_scheduled': {
    subject: (n) => n.details.vmId,
    what: vmLink,
    where: vmWhere,
    why: (n) => (
      <>
        <ReclaimNotice details={n.details} />
        {reasonGiven(n.details.reason)}
      </>
    ),
  },
  'reservation.needs_review': {
    subject: (n) => n.details.reservationId,
    what: (n) => (
      <Link href={reservationHref(n.details.nodeId, n.details.reservationId)} className={link}>
        {n.details.reservationId}
      </Link>
    ),
    where: (n) => (
      <Link href={`/nodes/${encodeURIComponent(n.details.nodeId)}`} className={link}>
        {n.details.nodeId}
      </Link>
    ),
    why: (n) => (
      <>
        <div>
          Needs review: the node’s topology changed (generation {n.details.fromGen} → {n.details.topologyGen})
        </div>
        <div className="text-ink-3">It withholds its units until an operator re-affirms it.</div>
      </>
    ),
  },
  'sign_in.lockout': {
    subject: (n) => n.details.email,
    what: (n) => (
      <span>
        {n.details.scope === 'device' ? 'A browser of ' : ''}
        <span className="font-mono">{n.details.email}</span>
      </span>
    ),
    where: () => (
      <Link href="/sign-ins" className="text-accent-ink hover:underline">
        Locked sign-ins
      </Link>
    ),
    why: (n) => (
      <>
        <div>
          Sign-in locked after {n.details.failures} failed attempts in {n.details.windowMinutes} minutes
        </div>
        <div className="text-ink-3">
          Until <Time iso={n.details.lockedUntil} />
        </div>
      </>
    ),
  },
  'webhook.disabled': {
    subject: (n) => n.details.webhookId,
    what: (n) => (
      <span>
        Webhook <span className="font-mono">{n.details.webhookId}</span>
      </span>
    ),
    where: (n) => <span className="font-mono [overflow-wrap:anywhere]">{n.details.url}</span>,
    why: (n) => (
      <>
        <div>
          Disabled: deliveries failed since <Time iso={n.details.failingSince} />
        </div>
        {n.details.lastError && <div className="text-ink-3">Last: {n.details.lastError}</div>}
        <div className="text-ink-3">Enable it again to resume where it stopped.</div>
      </>
    ),
  },
};

/** The row's cells, by its kind (one lookup, typed per kind). */
function cellsOf(n: NotificationView) {
  const k = kinds[n.kind] as (typeof kinds)['vm.reclaimed'];
  const typed = n as Of<'vm.reclaimed'>;
  return { subject: k.subject(typed), what: k.what(typed), where: k.where(typed), why: k.why(typed) };
}

function columns(markRead: ((n: NotificationView) => void) | null, pendingId: string | undefined): readonly Column<NotificationView>[] {
  return [
    {
      key: 'when',
      header: 'When',
      className: 'py-2 pr-4 text-ink-3',
      cell: (n) => <Time iso={n.at} relative />,
    },
    { key: 'what', header: 'What', cell: (n) => cellsOf(n).what },
    { key: 'where', header: 'Where', cell: (n) => cellsOf(n).where },
    { key: 'why', header: 'Why', cell: (n) => cellsOf(n).why },
    {
      key: 'read',
      header: <span className="sr-only">Read</span>,
      className: 'py-2 text-right',
      cell: (n) =>
        n.readAt ? (
          <Time iso={n.readAt} className="text-xs text-ink-4">
            read
          </Time>
        ) : !markRead ? (
          // A viewer marks nothing read (docs/product.md §2 Roles): the state shows, no button.
          <span className="text-xs text-ink-4">unread</span>
        ) : (
          <button
            type="button"
            disabled={pendingId === n.id}
            onClick={() => markRead(n)}
            aria-label={`Mark as read: ${cellsOf(n).subject}`}
            {...offers('notifications.mark-read')}
            className="rounded-md border border-line-strong bg-surface px-3 py-1 text-sm hover:bg-surface-2 disabled:opacity-50"
          >
            Mark as read
          </button>
        ),
    },
  ];
}

/**
 * The notifications page (docs/product.md §6): what happened to the acting org's VMs — which
 * VM, on which node and units, when, why and the reason given — and for the platform org what
 * needs an operator (a reservation in needs-review, a locked sign-in), newest first, unread ones
 * marked; "Mark as read" updates the row and the header's unread count. Rendered from the
 * page the server read for the URL's `cursor`; the layout re-renders it every 30 s.
 */
export function NotificationList(props: {
  list: PageResult<NotificationView>;
  cursor: string | undefined;
  /** Whether the user's role lets them mark notifications read (not a viewer's; docs/product.md §2 Roles). */
  mayMarkRead: boolean;
}) {
  const { cursor } = props;
  // A failed refresh keeps this page, with the error above it.
  const list = useLastGood(props.list, cursor ?? '');
  const refreshPage = useRefreshPage();
  const markRead = useServerCall(markNotificationRead);
  const [pendingId, setPendingId] = useState<string>();
  const mark = (n: NotificationView) => {
    setPendingId(n.id);
    markRead
      .run({ notificationId: n.id })
      // The row, and the header's count: both server-rendered.
      .then(refreshPage)
      .catch(() => {}) // shown from markRead.error
      .finally(() => setPendingId(undefined));
  };

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold" {...offers('notifications.page')}>
          Notifications
        </h1>
        <p className="text-sm text-ink-3">What happened to your org’s workloads, and what needs your org’s attention, newest first.</p>
      </div>
      {list.error && list.data && <StaleBanner error={list.error} what="your notifications" />}
      {list.error && !list.data && <p className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">{list.error}</p>}
      {markRead.error !== null && (
        <p role="alert" className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">
          {errorMessage(markRead.error)}
        </p>
      )}
      <div className="overflow-x-auto rounded-xl border border-line bg-surface px-4 shadow-sm">
        <DataTable
          columns={columns(props.mayMarkRead ? mark : null, pendingId)}
          rows={list.data?.items ?? []}
          rowKey={(n) => n.id}
          rowAttr="notification-id"
          rowData={(n) => ({ 'data-notification-kind': n.kind })}
          testId="notification-table"
          empty={list.data ? 'No notifications.' : 'Nothing to show.'}
        />
      </div>
      <UrlPager cursor={cursor} nextCursor={list.data?.nextCursor} />
    </div>
  );
}
