import type { Reservation } from '../trpc-types';

const statusTone: Record<Reservation['status'], string> = {
  active: 'bg-emerald-100 text-emerald-800',
  pending: 'bg-sky-100 text-sky-800',
  'needs-review': 'bg-amber-100 text-amber-900',
  expired: 'bg-slate-100 text-slate-600',
  cancelled: 'bg-slate-100 text-slate-500 line-through',
};

/** A reservation status (docs/product.md §4) as a coloured pill that also says it in words. */
export function StatusBadge({ status }: { status: Reservation['status'] }) {
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusTone[status]}`}>{status}</span>;
}
