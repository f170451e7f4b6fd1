'use client';

import Link from 'next/link';
import { OrgOrAnother } from '../another-org';
import { nodeHref, reservationHref, vmHref } from '../links';
import type { AuditEvent } from '../trpc-types';
import { column } from '../ui/paged-table';
import { Time } from '../time-zone';
import { Id } from '../unit-ids';

const ACTOR_HIDDEN = 'Your org may not see which org acted here: a tenant’s identity is private.';

/** A detail value as text: id lists joined (empty: "none"), scalars as they are, anything else as JSON. */
function detailText(value: unknown): string {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.length ? value.join(', ') : 'none';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** VM ids (a placement's `vmId`, a reclaim's `terminated` and `skipped`) link to each VM's page. */
const vmKeys = new Set(['vmId', 'terminated', 'skipped']);

function DetailValue({ name, value }: { name: string; value: unknown }) {
  const vmIds = vmKeys.has(name) ? (typeof value === 'string' ? [value] : Array.isArray(value) ? value.map(String) : []) : [];
  if (vmIds.length === 0) return <Id id={detailText(value)} />;
  return vmIds.map((id, i) => (
    <span key={id}>
      {i > 0 && ', '}
      <Link href={vmHref(id)} className="text-accent-ink hover:underline">
        {id}
      </Link>
    </span>
  ));
}

/** The API key that acted, as its own org sees it (the only org the API names it to). */
function ActorKey({ actorKey }: { actorKey: NonNullable<AuditEvent['actorKey']> }) {
  return (
    <span title={actorKey.id}>
      key {actorKey.name} <span className="font-mono text-ink-4">{actorKey.prefix}…</span>
    </span>
  );
}

/**
 * One event's details, expanded on demand (docs/product.md §5 Objects "Audit event"): who acted —
 * the actor org only where §2 shows it, else "another org", and the API key that acted when it
 * is one of the acting org's own — how, why, and what the action
 * recorded (a reclaim's `terminated` and `skipped`, a release's `released`, an edit's changes).
 */
export function AuditEventDetails({ event }: { event: AuditEvent }) {
  return (
    <details className="group text-xs">
      <summary className="cursor-pointer select-none text-accent-ink hover:underline">Details</summary>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-ink-2" data-testid="event-details">
        <dt className="text-ink-4">Event</dt>
        <dd className="font-mono">
          <Id id={event.id} />
        </dd>
        <dt className="text-ink-4">Actor</dt>
        <dd>
          <OrgOrAnother orgId={event.actorOrgId} names={event.orgNames} why={ACTOR_HIDDEN} /> <span className="text-ink-4">via {event.via}</span>
        </dd>
        {event.actorKey && (
          <>
            <dt className="text-ink-4">API key</dt>
            <dd data-testid="event-actor-key">
              <ActorKey actorKey={event.actorKey} />
            </dd>
          </>
        )}
        <dt className="text-ink-4">Reason</dt>
        <dd>{event.reason ?? <span className="text-ink-4">none given</span>}</dd>
        {Object.entries(event.details).map(([key, value]) => (
          <div key={key} className="contents" data-detail={key}>
            <dt className="text-ink-4">{key}</dt>
            <dd className="font-mono">
              <DetailValue name={key} value={value} />
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** The audit trail's columns, newest first as the API answers (docs/product.md §9 h). */
export const auditColumns = [
  column<AuditEvent>('at', 'When', (e) => <Time iso={e.at} />, 'whitespace-nowrap text-ink-3'),
  column<AuditEvent>('action', 'Action', (e) => <span data-testid="event-action">{e.action}</span>, 'font-mono text-xs'),
  column<AuditEvent>(
    'actor',
    'Actor',
    (e) => (
      <>
        <OrgOrAnother orgId={e.actorOrgId} names={e.orgNames} why={ACTOR_HIDDEN} />
        {e.actorKey && (
          <span className="block text-ink-4" data-testid="actor-key">
            <ActorKey actorKey={e.actorKey} />
          </span>
        )}
      </>
    ),
    'text-xs',
  ),
  column<AuditEvent>('node', 'Node', (e) =>
    e.nodeId ? (
      <Link href={nodeHref(e.nodeId)} className="font-mono text-xs text-accent-ink hover:underline">
        {e.nodeId}
      </Link>
    ) : (
      '—'
    ),
  ),
  column<AuditEvent>('reservation', 'Reservation', (e) =>
    e.nodeId && e.reservationId ? (
      <Link href={reservationHref(e.nodeId, e.reservationId)} className="font-mono text-xs text-accent-ink hover:underline">
        {e.reservationId}
      </Link>
    ) : (
      '—'
    ),
  ),
  column<AuditEvent>('units', 'Units', (e) => (e.unitIds.length ? e.unitIds.join(', ') : '—'), 'font-mono text-xs'),
  column<AuditEvent>('details', 'Details', (e) => <AuditEventDetails event={e} />, 'min-w-72'),
];
