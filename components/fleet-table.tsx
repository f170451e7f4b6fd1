'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { errorMessage } from './problem';
import { useTRPC } from './trpc-provider';
import { MiniGrid, UnitLegend } from './unit-grid/unit-grid';
import { unitStyles } from './unit-grid/unit-styles';

const PAGE_SIZE = 10;

/** The fleet page (docs/product.md §6): every node, its owner, per-state counts and a mini-grid; paginated. */
export function FleetTable() {
  const trpc = useTRPC();
  const [owner, setOwner] = useState('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length - 1;
  const nodes = useQuery({
    ...trpc.nodes.list.queryOptions({ limit: PAGE_SIZE, ...(cursors[page] ? { cursor: cursors[page] } : {}), ...(owner ? { ownerOrgId: owner } : {}) }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const states = Object.entries(unitStyles);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Fleet</h1>
          <p className="text-sm text-slate-600">Every node, with its GPU units by state.</p>
        </div>
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const value = new FormData(e.currentTarget).get('owner');
            setOwner(typeof value === 'string' ? value.trim() : '');
            setCursors([undefined]);
          }}
        >
          <label className="text-sm text-slate-700">
            Owner org
            <input name="owner" defaultValue={owner} placeholder="e.g. org_acme" className="mt-1 block w-48 rounded-md border border-slate-300 px-3 py-1.5 text-sm" />
          </label>
          <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50">
            Filter
          </button>
        </form>
      </div>

      {nodes.isError && <p className="rounded-md bg-red-50 p-3 text-sm text-red-900">{errorMessage(nodes.error)}</p>}
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-4 py-2 font-medium">Node</th>
              <th className="px-4 py-2 font-medium">Owner</th>
              <th className="px-4 py-2 font-medium">Units</th>
              <th className="px-4 py-2 font-medium">Grid</th>
              {states.map(([s, style]) => (
                <th key={s} className="px-2 py-2 text-center font-medium" title={style.label}>
                  <span className={`inline-flex h-5 w-7 items-center justify-center rounded border font-mono text-[10px] font-bold ${style.cell}`}>{style.glyph}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {(nodes.data?.items ?? []).map((n) => (
              <tr key={n.id} className="hover:bg-slate-50">
                <td className="px-4 py-2">
                  <Link href={`/nodes/${encodeURIComponent(n.id)}`} className="font-medium text-indigo-700 hover:underline">
                    {n.name}
                  </Link>
                  <div className="font-mono text-xs text-slate-500">{n.id}</div>
                </td>
                <td className="px-4 py-2 font-mono text-xs">{n.ownerOrgId}</td>
                <td className="px-4 py-2">{n.units.length}</td>
                <td className="px-4 py-2">
                  <MiniGrid units={n.units} />
                </td>
                {states.map(([s]) => (
                  <td key={s} className={`px-2 py-2 text-center tabular-nums ${n.counts[s as keyof typeof n.counts] ? '' : 'text-slate-300'}`}>
                    {n.counts[s as keyof typeof n.counts]}
                  </td>
                ))}
              </tr>
            ))}
            {nodes.data && nodes.data.items.length === 0 && (
              <tr>
                <td colSpan={4 + states.length} className="px-4 py-6 text-center text-slate-500">
                  No nodes match.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <div className="rounded-lg border border-slate-200 bg-white px-4 py-3">
        <UnitLegend />
      </div>
      <div className="flex items-center justify-between text-sm">
        <span className="text-slate-600">Page {page + 1}</span>
        <div className="flex gap-2">
          <button type="button" disabled={page === 0} onClick={() => setCursors((c) => c.slice(0, -1))} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50 disabled:opacity-40">
            ← Previous
          </button>
          <button type="button" disabled={!nodes.data?.nextCursor} onClick={() => setCursors((c) => [...c, nodes.data?.nextCursor])} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50 disabled:opacity-40">
            Next →
          </button>
        </div>
      </div>
    </div>
  );
}
