'use client';

import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { Suspense, useState } from 'react';
import { PageRefreshContext, useAutoRefresh } from './live/auto-refresh';
import { lazyWithTrpc } from './live/lazy-with-trpc';
import { StaleBanner } from './live/stale-banner';
import { useLastGood } from './live/use-last-good';
import type { Fetched, RouterOutputs } from './trpc-types';
import { DataTable, type Column } from './ui/data-table';
import { UrlFilters } from './ui/url-filters';
import { UrlPager } from './ui/url-pager';
import { FLEET_PAGE_SIZE, type FleetFilters } from './queries';
import { UnitLegend } from './unit-grid/legend';
import { MiniGrid } from './unit-grid/mini-grid';

import { unitStyles } from './unit-grid/unit-styles';
import { offers } from './offers';
import { OrgIds } from './org-names';
import { fleetFilterFields as fields, relationBadges } from './fleet-filters';

// Loaded on demand with the data layer it calls the server through (see node/node-view.tsx).
const RegisterNodeDialog = lazyWithTrpc(() => import('./topology-dialogs').then((m) => m.RegisterNodeDialog));
const REFRESH_MS = 10_000;

type FleetNode = RouterOutputs['nodes']['list']['items'][number];
const states = Object.entries(unitStyles) as [keyof typeof unitStyles, (typeof unitStyles)[keyof typeof unitStyles]][];

/** A column header that sorts the list by `sort` (toggling the order when it already does), keeping the filters; paging restarts. */
function SortHeader({ label, sort, filters }: { label: string; sort: string; filters: FleetFilters }) {
  const pathname = usePathname();
  const search = useSearchParams();
  const current = (filters.sort ?? 'id') === sort;
  const order = current && (filters.order ?? 'asc') === 'asc' ? 'desc' : 'asc';
  const params = new URLSearchParams(search.toString());
  params.delete('cursor');
  params.set('sort', sort);
  params.set('order', order);
  const arrow = current ? ((filters.order ?? 'asc') === 'asc' ? ' ↑' : ' ↓') : '';
  return (
    <Link
      href={`${pathname}?${params.toString()}`}
      className="uppercase hover:text-ink"
      title={`Sort by ${label.toLowerCase()}, ${order === 'asc' ? 'ascending' : 'descending'}`}
    >
      {label}
      {arrow}
    </Link>
  );
}

const ariaSortOf = (filters: FleetFilters, sort: string) =>
  (filters.sort ?? 'id') === sort ? ((filters.order ?? 'asc') === 'asc' ? 'ascending' : 'descending') : ('none' as const);

function columnsFor(filters: FleetFilters): readonly Column<FleetNode>[] {
  return [
    {
      key: 'node',
      header: (
        <>
          <SortHeader label="Node" sort="name" filters={filters} /> · <SortHeader label="Id" sort="id" filters={filters} />
        </>
      ),
      ariaSort: ariaSortOf(filters, 'name') === 'none' ? ariaSortOf(filters, 'id') : ariaSortOf(filters, 'name'),
      headerClassName: 'px-4 py-2 font-medium',
      className: 'px-4 py-2',
      cell: (n) => (
        <>
          <Link href={`/nodes/${encodeURIComponent(n.id)}`} className="font-medium text-accent-ink hover:underline">
            {n.name}
          </Link>
          <div className="font-mono text-xs text-ink-4">{n.id}</div>
          {n.relations.length > 0 && (
            <div className="mt-1 flex flex-wrap gap-1" data-testid="node-relations">
              {n.relations.map((r) => (
                <span key={r} className="rounded bg-info-soft px-1.5 py-0.5 text-[11px] font-medium text-info-ink">
                  {relationBadges[r]}
                </span>
              ))}
            </div>
          )}
        </>
      ),
    },
    {
      key: 'owner',
      header: <SortHeader label="Owner" sort="owner" filters={filters} />,
      ariaSort: ariaSortOf(filters, 'owner'),
      headerClassName: 'px-4 py-2 font-medium',
      className: 'px-4 py-2',
      cell: (n) => <OrgIds ids={[n.ownerOrgId]} names={n.orgNames} />,
    },
    { key: 'units', header: 'Units', headerClassName: 'px-4 py-2 font-medium', className: 'px-4 py-2', cell: (n) => n.units.length },
    { key: 'grid', header: 'Grid', headerClassName: 'px-4 py-2 font-medium', className: 'px-4 py-2', cell: (n) => <MiniGrid units={n.units} /> },
    ...states.map(([s, style]): Column<FleetNode> => ({
      key: s,
      headerClassName: 'px-2 py-2 text-center font-medium',
      header: (
        <span title={style.label} className={`inline-flex h-5 w-7 items-center justify-center rounded border font-mono text-[10px] font-bold ${style.cell}`}>
          {style.glyph}
        </span>
      ),
      className: 'px-2 py-2 text-center tabular-nums',
      cell: (n) => <span className={n.counts[s] ? '' : 'text-ink-4'}>{n.counts[s]}</span>,
    })),
  ];
}

const numberFormat = new Intl.NumberFormat('en-US');

/** "2,345 nodes" / "1,000+ nodes": the list counts its matches up to a cap (docs/performance.md). */
export function nodeCount(total: number, capped: boolean): string {
  return `${numberFormat.format(total)}${capped ? '+' : ''} ${total === 1 && !capped ? 'node' : 'nodes'}`;
}

/**
 * The fleet page (docs/product.md §6): every node, its owner, per-state counts and a mini-grid;
 * searched, filtered (owner by name or id, the acting org's relation, released units, needs
 * review), sorted (column headers with `aria-sort`), counted and paginated. Rendered from what the
 * server page read for the URL: filters, sort and pages navigate (a reload or a shared link shows
 * the same page), and the table refreshes by re-rendering the page every REFRESH_MS.
 */
export function FleetTable(props: {
  nodes: Fetched<RouterOutputs['nodes']['list']>;
  fleetActions: Fetched<RouterOutputs['nodes']['fleetActions']>;
  owners: Fetched<RouterOutputs['nodes']['owners']>;
  filters: FleetFilters;
  cursor: string | undefined;
}) {
  const { filters, cursor } = props;
  // A failed refresh keeps this page of the fleet, with the error above it.
  const nodes = useLastGood(props.nodes, cursor ?? '');
  const fleetActions = useLastGood(props.fleetActions, '');
  const pathname = usePathname();
  // Live: at once when a change on any node commits (the acting org's stream), polling meanwhile.
  const { refresh } = useAutoRefresh(REFRESH_MS, (c) => c.nodeId !== undefined);
  const [registering, setRegistering] = useState(false);
  const page = nodes.data;
  // The owners the filter matched, as the page names them (a name matches several orgs' names).
  const matched = [...new Map((page?.items ?? []).map((n) => [n.ownerOrgId, n])).values()].slice(0, 3);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <div>
          <h1 className="text-2xl font-semibold" {...offers('fleet.page')}>
            Fleet
          </h1>
          <p className="text-sm text-ink-3">Every node, with its GPU units by state.</p>
        </div>
        {fleetActions.data?.includes('registerNode') && (
          <button
            type="button"
            onClick={() => setRegistering(true)}
            {...offers('fleet.register-node')}
            className="rounded-md bg-accent px-3 py-1.5 text-sm font-semibold text-on-accent hover:bg-accent-strong"
          >
            Register node…
          </button>
        )}
      </div>
      <UrlFilters fields={fields(props.owners.data?.items ?? [])} values={filters} errors={nodes.errors} />

      {filters.owner && page && (
        // The owner named where a node listed names it (docs/product.md §9.1 q: never a lookup by id).
        <p className="text-sm text-ink-3" data-testid="owner-filter">
          Nodes owned by{' '}
          {matched.length === 0
            ? `“${filters.owner}”`
            : matched.map((n, k) => (
                <span key={n.ownerOrgId}>
                  {k > 0 && ' or '}
                  <OrgIds ids={[n.ownerOrgId]} names={n.orgNames} />
                </span>
              ))}{' '}
          ·{' '}
          <Link href={pathname} className="text-accent-ink hover:underline">
            show every owner
          </Link>
        </p>
      )}
      {page && (
        <p className="text-sm text-ink-2" data-testid="fleet-total">
          {nodeCount(page.total, page.totalCapped)} match
          {page.totalCapped && <span className="text-ink-3"> (counted up to {numberFormat.format(page.total)})</span>}
        </p>
      )}
      {nodes.error && nodes.data && <StaleBanner error={nodes.error} what="the fleet" />}
      {nodes.error && !nodes.data && <p className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">{nodes.error}</p>}
      <div className="overflow-x-auto rounded-xl border border-line bg-surface shadow-sm">
        <DataTable
          columns={columnsFor(filters)}
          rows={page?.items ?? []}
          rowKey={(n) => n.id}
          rowAttr="node-id"
          rowClassName="hover:bg-surface-2"
          headClassName="border-b border-line bg-surface-2 text-xs uppercase tracking-wide text-ink-4"
          empty={page ? 'No nodes match.' : '—'}
        />
      </div>
      <div className="rounded-lg border border-line bg-surface px-4 py-3">
        <UnitLegend />
      </div>
      <UrlPager
        cursor={cursor}
        nextCursor={page?.nextCursor}
        count={page ? { total: page.total, capped: page.totalCapped, pageSize: FLEET_PAGE_SIZE, shown: page.items.length, noun: nodeCount } : undefined}
      />
      <PageRefreshContext.Provider value={refresh}>
        <Suspense fallback={null}>{registering && <RegisterNodeDialog onClose={() => setRegistering(false)} />}</Suspense>
      </PageRefreshContext.Provider>
    </div>
  );
}
