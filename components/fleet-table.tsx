'use client';

import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { Suspense, useState, useTransition } from 'react';
import { PageRefreshContext, useAutoRefresh } from './live/auto-refresh';
import { lazyWithTrpc } from './live/lazy-with-trpc';
import { StaleBanner } from './live/stale-banner';
import { useLastGood } from './live/use-last-good';
import type { Fetched, RouterOutputs } from './trpc-types';
import { DataTable, type Column } from './ui/data-table';
import { UrlPager } from './ui/url-pager';
import { UnitLegend } from './unit-grid/legend';
import { MiniGrid } from './unit-grid/mini-grid';

import { unitStyles } from './unit-grid/unit-styles';
import { offers } from './offers';
import { OrgIds } from './org-names';

// Loaded on demand with the data layer it calls the server through (see node/node-view.tsx).
const RegisterNodeDialog = lazyWithTrpc(() => import('./topology-dialogs').then((m) => m.RegisterNodeDialog));
const REFRESH_MS = 10_000;

type FleetNode = RouterOutputs['nodes']['list']['items'][number];
const states = Object.entries(unitStyles) as [keyof typeof unitStyles, (typeof unitStyles)[keyof typeof unitStyles]][];

const columns: readonly Column<FleetNode>[] = [
  {
    key: 'node',
    header: 'Node',
    headerClassName: 'px-4 py-2 font-medium',
    className: 'px-4 py-2',
    cell: (n) => (
      <>
        <Link href={`/nodes/${encodeURIComponent(n.id)}`} className="font-medium text-accent-ink hover:underline">
          {n.name}
        </Link>
        <div className="font-mono text-xs text-ink-4">{n.id}</div>
      </>
    ),
  },
  {
    key: 'owner',
    header: 'Owner',
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

/**
 * The fleet page (docs/product.md §6): every node, its owner, per-state counts and a mini-grid;
 * paginated. Rendered from what the server page read for the URL's `owner` and `cursor`: the
 * filter and the pages navigate (a reload or a shared link shows the same page), and the table
 * refreshes by re-rendering the page every REFRESH_MS.
 */
export function FleetTable(props: {
  nodes: Fetched<RouterOutputs['nodes']['list']>;
  fleetActions: Fetched<RouterOutputs['nodes']['fleetActions']>;
  owner: string;
  cursor: string | undefined;
}) {
  const { owner, cursor } = props;
  // A failed refresh keeps this page of the fleet, with the error above it.
  const nodes = useLastGood(props.nodes, `${owner}|${cursor ?? ''}`);
  const fleetActions = useLastGood(props.fleetActions, '');
  const router = useRouter();
  const pathname = usePathname();
  const [, startTransition] = useTransition();
  const { refresh } = useAutoRefresh(REFRESH_MS);
  const [registering, setRegistering] = useState(false);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex items-end gap-4">
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
        {/* A GET form: without JavaScript it still filters (the browser navigates to ?owner=). */}
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const value = new FormData(e.currentTarget).get('owner');
            const next = typeof value === 'string' ? value.trim() : '';
            startTransition(() => router.push(next ? `${pathname}?${new URLSearchParams({ owner: next })}` : pathname));
          }}
        >
          <label className="text-sm text-ink-2">
            Owner org
            <input
              name="owner"
              key={owner}
              defaultValue={owner}
              placeholder="e.g. org_acme"
              className="mt-1 block w-48 rounded-md border border-line-strong px-3 py-1.5 text-sm"
            />
          </label>
          <button type="submit" className="rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm hover:bg-surface-2">
            Filter
          </button>
        </form>
      </div>

      {owner && nodes.data && (
        // The filter by the owner's name where a node listed names it (docs/product.md §9.1 q: never a lookup by id).
        <p className="text-sm text-ink-3" data-testid="owner-filter">
          Nodes owned by <OrgIds ids={[owner]} names={nodes.data.items[0]?.orgNames} /> ·{' '}
          <Link href={pathname} className="text-accent-ink hover:underline">
            show every owner
          </Link>
        </p>
      )}
      {nodes.error && nodes.data && <StaleBanner error={nodes.error} what="the fleet" />}
      {nodes.error && !nodes.data && <p className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">{nodes.error}</p>}
      <div className="overflow-x-auto rounded-xl border border-line bg-surface shadow-sm">
        <DataTable
          columns={columns}
          rows={nodes.data?.items ?? []}
          rowKey={(n) => n.id}
          rowClassName="hover:bg-surface-2"
          headClassName="border-b border-line bg-surface-2 text-xs uppercase tracking-wide text-ink-4"
          empty={nodes.data ? 'No nodes match.' : '—'}
        />
      </div>
      <div className="rounded-lg border border-line bg-surface px-4 py-3">
        <UnitLegend />
      </div>
      <UrlPager cursor={cursor} scope={owner} nextCursor={nodes.data?.nextCursor} />
      <PageRefreshContext.Provider value={refresh}>
        <Suspense fallback={null}>{registering && <RegisterNodeDialog onClose={() => setRegistering(false)} />}</Suspense>
      </PageRefreshContext.Provider>
    </div>
  );
}
