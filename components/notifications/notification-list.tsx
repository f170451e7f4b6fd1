'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { formatDateTime, formatRelative } from '../format';
import { errorMessage } from '../problem';
import { notificationsQueryInput } from '../queries';
import { useTRPC } from '../trpc-provider';
import type { NotificationView } from '../trpc-types';
import { DataTable, type Column } from '../ui/data-table';
import { Pager } from '../ui/pager';
import { useCursorPages } from '../ui/use-cursor-pages';

const link = 'font-mono text-indigo-700 hover:underline';

function columns(markRead: (n: NotificationView) => void, pendingId: string | undefined): readonly Column<NotificationView>[] {
  return [
    {
      key: 'when',
      header: 'When',
      className: 'py-2 pr-4 text-slate-600',
      cell: (n) => (
        <span title={formatDateTime(n.details.terminatedAt)} suppressHydrationWarning>
          {formatRelative(n.details.terminatedAt)}
        </span>
      ),
    },
    {
      key: 'vm',
      header: 'VM',
      cell: (n) => (
        <Link href={`/vms/${encodeURIComponent(n.details.vmId)}`} className={link}>
          {n.details.vmId}
        </Link>
      ),
    },
    {
      key: 'node',
      header: 'Node and units',
      cell: (n) => (
        <>
          <Link href={`/nodes/${encodeURIComponent(n.details.nodeId)}`} className={link}>
            {n.details.nodeId}
          </Link>
          <div className="font-mono text-xs text-slate-500">{n.details.unitIds.join(', ')}</div>
        </>
      ),
    },
    {
      key: 'why',
      header: 'Why',
      cell: (n) => (
        <>
          <div>Terminated: its spot capacity was reclaimed</div>
          {n.details.reason ? <div className="text-slate-600">Reason given: “{n.details.reason}”</div> : <div className="text-slate-400">No reason given</div>}
        </>
      ),
    },
    {
      key: 'read',
      header: <span className="sr-only">Read</span>,
      className: 'py-2 text-right',
      cell: (n) =>
        n.readAt ? (
          <span className="text-xs text-slate-500" title={formatDateTime(n.readAt)}>
            read
          </span>
        ) : (
          <button type="button" disabled={pendingId === n.id} onClick={() => markRead(n)} aria-label={`Mark as read: ${n.details.vmId}`} className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm hover:bg-slate-50 disabled:opacity-50">
            Mark as read
          </button>
        ),
    },
  ];
}

/**
 * The notifications page (docs/product.md §6): what happened to the acting org's VMs — which
 * VM, on which node and units, when, why and the reason given — newest first, unread ones
 * marked; "Mark as read" updates the row and the header's unread count.
 */
export function NotificationList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pages = useCursorPages();
  const list = useQuery({ ...trpc.audit.notifications.queryOptions(notificationsQueryInput(pages.cursor)), placeholderData: keepPreviousData, refetchInterval: 30_000 });
  const markRead = useMutation(
    trpc.audit.markNotificationRead.mutationOptions({
      // The list and the bell's count, every page of them.
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() }),
    }),
  );

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Notifications</h1>
        <p className="text-sm text-slate-600">What happened to your org’s workloads, newest first.</p>
      </div>
      {list.isError && <p className="rounded-md bg-red-50 p-3 text-sm text-red-900">{errorMessage(list.error)}</p>}
      {markRead.isError && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          {errorMessage(markRead.error)}
        </p>
      )}
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white px-4 shadow-sm">
        <DataTable
          columns={columns((n) => markRead.mutate({ notificationId: n.id }), markRead.isPending ? markRead.variables?.notificationId : undefined)}
          rows={list.data?.items ?? []}
          rowKey={(n) => n.id}
          rowAttr="notification-id"
          testId="notification-table"
          empty={list.data ? 'No notifications.' : 'Loading…'}
        />
      </div>
      <Pager pages={pages} nextCursor={list.data?.nextCursor} />
    </div>
  );
}
