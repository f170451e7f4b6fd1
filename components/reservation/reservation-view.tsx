'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { OrgOrAnother } from '../another-org';
import { auditColumns } from '../audit/audit-columns';
import { StaleBanner } from '../live/stale-banner';
import { useLastGood } from '../live/use-last-good';
import { nodeHref } from '../links';
import type { AuditEvent, Fetched, HistoryEntry, NodeData, NodeVm, Reservation, RouterOutputs } from '../trpc-types';
import { PagedTable, type PageResult } from '../ui/paged-table';
import { UnitLegend } from '../unit-grid/legend';
import { MiniGrid } from '../unit-grid/mini-grid';
import { OrgIds } from '../org-names';
import { Id, UnitIds } from '../unit-ids';
import { ReservationActions } from './reservation-actions';
import { StatusBadge } from './status-badge';
import { offers } from '../offers';
import { Time } from '../time-zone';

const ids = (list: string[]) => (list.length ? <UnitIds ids={list} /> : '—');

/** Every field of the Reservation object (docs/product.md §5.1a), in the contract's words where it has them. */
function fieldsOf(r: Reservation, names: Record<string, string> | undefined): [label: string, value: ReactNode, testId: string][] {
  return [
    [
      'Node',
      <Link key="n" href={nodeHref(r.nodeId)} className="text-accent-ink hover:underline">
        <Id id={r.nodeId} />
      </Link>,
      'node',
    ],
    ['Status', <StatusBadge key="s" status={r.status} />, 'status'],
    ['Reserved units', ids(r.reservedUnitIds), 'reserved-units'],
    ['Released units', ids(r.releasedUnitIds), 'released-units'],
    ['Audience (allowedOrgIds)', <OrgIds key="a" ids={r.allowedOrgIds} names={names} />, 'allowed-orgs'],
    ['Managing orgs', <OrgIds key="m" ids={r.managingOrgIds} names={names} />, 'managing-orgs'],
    ['Starts', <Time key="s" iso={r.startsAt} />, 'starts-at'],
    ['Ends', r.endsAt ? <Time key="e" iso={r.endsAt} /> : 'open-ended, until cancelled', 'ends-at'],
    ['Contract', r.contractRef ?? '—', 'contract-ref'],
    ['Reason', r.reason ?? '—', 'reason'],
    ['Topology generation', r.topologyGen, 'topology-gen'],
    ['Created', <Time key="c" iso={r.createdAt} />, 'created-at'],
    ['Updated', <Time key="u" iso={r.updatedAt} />, 'updated-at'],
  ];
}

const kindLabels: Record<HistoryEntry['kind'], string> = {
  created: 'Created',
  updated: 'Edited',
  released: 'Released units to the spot market',
  reclaimed: 'Reclaimed units',
  cancelled: 'Cancelled',
  reaffirmed: 'Re-affirmed after a topology change',
  started: 'Period began',
  expired: 'Period ended',
  'needs-review': 'Node topology changed',
};

function HistoryLine({ entry }: { entry: HistoryEntry }) {
  const e = entry.event;
  return (
    <li className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2 text-sm" data-history-kind={entry.kind}>
      <Time iso={entry.at} className="w-48 shrink-0 text-ink-3" />
      <span className="font-medium">{kindLabels[entry.kind]}</span>
      {entry.topologyGen !== undefined && <span className="text-xs text-ink-4">generation {entry.topologyGen}</span>}
      {e && e.unitIds.length > 0 && entry.kind !== 'created' && entry.kind !== 'cancelled' && (
        <span className="font-mono text-xs text-ink-3">{e.unitIds.join(', ')}</span>
      )}
      <span className="ml-auto flex items-center gap-2 text-xs text-ink-4">
        {e && (
          <span>
            by <OrgOrAnother orgId={e.actorOrgId} names={e.orgNames} why="Your org may not see which org acted here." />
          </span>
        )}
        <StatusBadge status={entry.status} />
      </span>
      {e?.reason && <p className="basis-full pl-[13.75rem] text-xs text-ink-3">“{e.reason}”</p>}
    </li>
  );
}

function Section({ title, id, offer, children }: { title: string; id: string; offer?: ReturnType<typeof offers>; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-line bg-surface p-5 shadow-sm" aria-labelledby={id} {...offer}>
      <h2 id={id} className="mb-3 font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The reservation page (docs/product.md §6): every field, its units on a mini-grid of its
 * node's unit states, its status history (§4: derived on the server from its audit events,
 * its period and the node's topology changes) and its own audit trail, cursor-paged through
 * the URL. Rendered from what the server page read, so the first HTML holds it.
 */
export function ReservationView(props: {
  nodeId: string;
  reservation: Fetched<Reservation>;
  node: Fetched<NodeData>;
  history: Fetched<RouterOutputs['reservations']['history']>;
  /** What the page offers (the node page's actions on it) and the names of the orgs it names. */
  offers: Fetched<RouterOutputs['reservations']['offers']>;
  /** The node's running VMs, for Reclaim…'s preview. */
  vms: Fetched<NodeVm[]>;
  trail: PageResult<AuditEvent>;
  cursor: string | undefined;
  /** Its scheduled reclaims, rendered by the server page (components/reservation/scheduled-reclaims.tsx); null when not the acting org's to see. */
  schedules?: ReactNode;
  /** Its utilisation over the last 7 or 30 days, rendered by the server page (components/utilisation/reservation-utilisation.tsx). */
  utilisation?: ReactNode;
}) {
  const { nodeId, trail, cursor } = props;
  // A failed refresh keeps what the page shows, with the error above it.
  const reservation = useLastGood(props.reservation, nodeId);
  const node = useLastGood(props.node, nodeId);
  const history = useLastGood(props.history, nodeId);
  const offered = useLastGood(props.offers, nodeId);
  const vms = useLastGood(props.vms, nodeId);
  if (!reservation.data) {
    return (
      <div role="alert" className="rounded-md border border-danger-line bg-danger-soft p-4 text-sm text-danger-ink">
        {reservation.error}{' '}
        <Link href={nodeHref(nodeId)} className="underline">
          Back to the node
        </Link>
      </div>
    );
  }
  const r = reservation.data;
  const mine = new Set(r.reservedUnitIds);
  const staleError = [reservation, node, history].find((f) => f.error && f.data)?.error;

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-ink-4">
          <Link href="/" className="hover:underline">
            Fleet
          </Link>{' '}
          /{' '}
          <Link href={nodeHref(nodeId)} className="hover:underline">
            {node.data?.name ?? nodeId}
          </Link>{' '}
          / reservation
        </p>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="flex min-w-0 flex-wrap items-center gap-3 text-2xl font-semibold" {...offers('reservation.page')}>
            <span className="min-w-0 font-mono">
              <Id id={r.id} />
            </span>{' '}
            <StatusBadge status={r.status} />
          </h1>
          <ReservationActions reservation={r} actions={offered.data?.actions ?? []} node={node.data} vms={vms.data ?? []} />
        </div>
      </div>
      {staleError && <StaleBanner error={staleError} what="the reservation" />}

      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Section title="Details" id="details-title">
          <dl className="grid grid-cols-[minmax(0,12rem)_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm" data-testid="reservation-fields">
            {fieldsOf(r, offered.data?.orgNames).map(([label, value, testId]) => (
              <div key={testId} className="contents">
                <dt className="text-ink-4">{label}</dt>
                <dd className="font-mono text-ink" data-testid={`field-${testId}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        </Section>
        <Section title="Units on the node" id="units-title">
          {!node.data ? (
            <p className="text-sm text-danger">{node.error}</p>
          ) : (
            <div className="space-y-3" data-testid="reservation-grid">
              <MiniGrid units={node.data.units} highlight={mine} />
              <p className="text-xs text-ink-3">
                Ringed: this reservation’s {r.reservedUnitIds.length} of the node’s {node.data.units.length} units, in their state now; the others are dimmed.
              </p>
              <UnitLegend />
            </div>
          )}
        </Section>
      </div>

      {props.schedules}

      {props.utilisation}

      <Section title="Status history" id="history-title" offer={offers('reservation.history')}>
        {!history.data ? (
          <p className="text-sm text-danger">{history.error}</p>
        ) : (
          <>
            <ol className="divide-y divide-line-soft" data-testid="status-history">
              {history.data.entries.map((entry, i) => (
                <HistoryLine key={`${entry.at}-${i}`} entry={entry} />
              ))}
            </ol>
            {history.data.truncated && <p className="mt-2 text-xs text-ink-4">Older changes are left out; the audit trail below has them all.</p>}
            <p className="mt-2 text-xs text-ink-4">
              Changes show as your org’s audit trail shows them; period boundaries and topology changes show to all who may see the reservation.
            </p>
          </>
        )}
      </Section>

      <Section title="Audit trail" id="trail-title">
        <PagedTable
          result={trail}
          columns={auditColumns}
          rowKey={(e) => e.id}
          rowAttr="event-id"
          testId="audit-table"
          empty="No event of this reservation is visible to your org."
          cursor={cursor}
        />
      </Section>
    </div>
  );
}
