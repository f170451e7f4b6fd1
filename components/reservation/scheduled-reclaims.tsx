import Link from 'next/link';
import { formatCountdown } from '../countdown';
import { vmHref } from '../links';
import { offers } from '../offers';
import { OrgIds } from '../org-names';
import type { Fetched, ReclaimSchedule, RouterOutputs } from '../trpc-types';
import type { Column } from '../ui/data-table';
import { UnitIds } from '../unit-ids';
import { ScheduleActions } from './schedule-actions';
import { Time } from '../time-zone';

/**
 * The reservation page's "Scheduled reclaims" (issue 22): each schedule of the reservation,
 * newest first — its time, units, status, what its run did, who scheduled it and why — with
 * Reschedule… and Cancel schedule… on a pending one where the reservation offers reclaim.
 *
 * A server component: the page renders it into the reservation view, so the list costs the
 * page's first-load JS nothing (docs/first-load-js.md: the page is at its budget); only its
 * buttons (ScheduleActions) are client code. Older schedules are a link (`?schedules=`), as
 * every list of the console pages through its URL.
 */

type SchedulePage = RouterOutputs['scheduledReclaims']['list'];
/** A schedule of the list, with its scheduler org's name (`orgNames`). */
type Listed = SchedulePage['items'][number];

const statusWords: Record<ReclaimSchedule['status'], { label: string; tone: string }> = {
  pending: { label: 'scheduled', tone: 'bg-warn-soft-2 text-warn-ink' },
  done: { label: 'done', tone: 'bg-ok-soft-2 text-ok-ink' },
  cancelled: { label: 'cancelled', tone: 'bg-surface-3 text-ink-4 line-through' },
  lapsed: { label: 'lapsed', tone: 'bg-surface-4 text-ink-2' },
};

/** Why a schedule lapsed, in words (it names the system job in the audit trail). */
const lapseWords: Record<NonNullable<ReclaimSchedule['lapseReason']>, string> = {
  reservation_cancelled: 'the reservation was cancelled before it came, so nothing was reclaimed.',
  reservation_ended: 'the reservation ended before it came, so nothing was reclaimed.',
  scheduler_may_not_reclaim: 'whoever scheduled it could no longer reclaim these units when it came, so nothing was reclaimed.',
  no_units_left: 'none of its units was still in the reservation when it came.',
};

/**
 * Who scheduled it (docs/product.md §5.6 `createdBy`): its org by name to all who may read it;
 * the person or API key (by id: the API names neither) only to the operator and that org; a
 * platform job by name.
 */
function Scheduler({ s }: { s: Listed }) {
  const by = s.createdBy;
  return (
    <>
      <OrgIds ids={[by.orgId]} names={s.orgNames} />
      {by.userId && <span className="block text-ink-4">a person of the org ({by.userId})</span>}
      {by.apiKeyId && <span className="block text-ink-4">an API key of the org ({by.apiKeyId})</span>}
      {by.job && <span className="block text-ink-4">platform job {by.job}</span>}
    </>
  );
}

/** VM ids, each a link to its page. */
function VmLinks({ ids }: { ids: string[] }) {
  return ids.map((id, i) => (
    <span key={id}>
      {i > 0 && ', '}
      <Link href={vmHref(id)} className="font-mono text-accent-ink hover:underline">
        {id}
      </Link>
    </span>
  ));
}

/** What the schedule did, or will do, in words. */
function Outcome({ s }: { s: ReclaimSchedule }) {
  // Said as of this render: the page renders again every 30 s (the layout's AutoRefresh).
  if (s.status === 'pending') {
    const left = formatCountdown(s.at);
    return <span className="text-warn-ink">Pending: {left === 'due now' ? 'due now, about to run.' : `runs in ${left}.`}</span>;
  }
  if (s.status === 'cancelled') return <span className="text-ink-4">Cancelled: nothing was reclaimed.</span>;
  if (s.status === 'lapsed') return <span className="text-ink-3">Lapsed: {s.lapseReason ? lapseWords[s.lapseReason] : 'it could no longer run.'}</span>;
  const { terminated = [], skipped = [] } = s.outcome ?? {};
  return (
    <span>
      Reclaimed.{' '}
      {terminated.length ? (
        <>
          Terminated <VmLinks ids={terminated} />
        </>
      ) : (
        'No spot VM to terminate'
      )}
      {skipped.length > 0 && (
        <>
          ; left <VmLinks ids={skipped} /> running (not spot)
        </>
      )}
      .
    </span>
  );
}

function columns(canManage: boolean, endsAt: string | undefined): Column<Listed>[] {
  const cols: Column<Listed>[] = [
    {
      key: 'at',
      header: 'Reclaim at',
      className: 'whitespace-nowrap font-medium',
      cell: (s) => <Time iso={s.at} />,
    },
    { key: 'units', header: 'Units', className: 'font-mono text-xs', cell: (s) => <UnitIds ids={s.unitIds} /> },
    {
      key: 'status',
      header: 'Status',
      cell: (s) => (
        <span data-testid="schedule-status" className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusWords[s.status].tone}`}>
          {statusWords[s.status].label}
        </span>
      ),
    },
    { key: 'outcome', header: 'Outcome', className: 'text-xs', cell: (s) => <Outcome s={s} /> },
    {
      key: 'by',
      header: 'Scheduled by',
      className: 'text-xs',
      cell: (s) => (
        <>
          <Scheduler s={s} />
          <Time iso={s.createdAt} className="block text-ink-4" />
          {s.reason && <span className="block text-ink-3">“{s.reason}”</span>}
        </>
      ),
    },
  ];
  if (canManage)
    cols.push({
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'md:text-right',
      cell: (s) => s.status === 'pending' && <ScheduleActions schedule={s} endsAt={endsAt} />,
    });
  return cols;
}

/**
 * A table on a wide screen; on a narrow one each schedule a block of labelled lines, so that its
 * status and buttons are not scrolled out of sight (the page's other tables scroll).
 */
function ScheduleTable({ columns: cols, items }: { columns: Column<Listed>[]; items: Listed[] }) {
  // `relative`: the narrow layout's screen-reader-only header stays inside, not beside the page.
  return (
    <div className="relative max-w-full overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="schedule-table">
        <thead className="text-xs uppercase tracking-wide text-ink-4 max-md:sr-only">
          <tr>
            {cols.map((c) => (
              <th key={c.key} className="py-2 pr-4 font-medium">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line-soft">
          {items.map((s) => (
            <tr key={s.id} data-schedule-id={s.id} data-schedule-status={s.status} className="max-md:block max-md:py-2">
              {cols.map((c) => (
                <td key={c.key} className={`py-2 pr-4 align-top max-md:block max-md:py-0.5 max-md:pr-0 ${c.className ?? ''}`}>
                  {typeof c.header === 'string' && <span className="font-sans text-xs font-normal text-ink-4 md:hidden">{c.header}: </span>}
                  {c.cell(s)}
                </td>
              ))}
            </tr>
          ))}
          {items.length === 0 && (
            <tr>
              <td colSpan={cols.length} className="px-4 py-6 text-center text-ink-4">
                No reclaim of this reservation has been scheduled.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

export function ScheduledReclaims(props: {
  schedules: Fetched<SchedulePage>;
  /** The reservation offers reclaim to the acting org: it may schedule, reschedule and cancel. */
  canManage: boolean;
  endsAt: string | undefined;
  /** The URL's `?schedules=` (a later page), and this page's address without it. */
  cursor: string | undefined;
  hrefFor: (cursor: string | undefined) => string;
}) {
  const { schedules, canManage, endsAt, cursor, hrefFor } = props;
  const items = schedules.data?.items ?? [];
  return (
    <section className="rounded-xl border border-line bg-surface p-5 shadow-sm" aria-labelledby="schedules-title" {...offers('reservation.schedules')}>
      <h2 id="schedules-title" className="mb-1 font-semibold">
        Scheduled reclaims
      </h2>
      <p className="mb-3 text-xs text-ink-3">
        A scheduled reclaim runs once at its time; the tenants of spot VMs on its units are told when it is made and at every change.
        {canManage && ' To schedule one, open Reclaim… on released units and pick “Schedule…”.'}
      </p>
      {!schedules.data ? <p className="text-sm text-danger">{schedules.error}</p> : <ScheduleTable columns={columns(canManage, endsAt)} items={items} />}
      {(cursor || schedules.data?.nextCursor) && (
        <p className="mt-2 flex gap-3 text-sm">
          {cursor && (
            <Link href={hrefFor(undefined)} prefetch={false} className="text-accent-ink hover:underline">
              ← Newest schedules
            </Link>
          )}
          {schedules.data?.nextCursor && (
            <Link href={hrefFor(schedules.data.nextCursor)} prefetch={false} className="text-accent-ink hover:underline">
              Older schedules →
            </Link>
          )}
        </p>
      )}
    </section>
  );
}
