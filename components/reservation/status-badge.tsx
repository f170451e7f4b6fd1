import type { Reservation } from '../trpc-types';

const statusTone: Record<Reservation['status'], string> = {
  active: 'bg-ok-soft-2 text-ok-ink',
  pending: 'bg-info-soft text-info-ink',
  'needs-review': 'bg-warn-soft-2 text-warn-ink',
  expired: 'bg-surface-3 text-ink-3',
  cancelled: 'bg-surface-3 text-ink-4 line-through',
};

/** A reservation status (docs/product.md §4) as a coloured pill that also says it in words. */
export function StatusBadge({ status }: { status: Reservation['status'] }) {
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusTone[status]}`}>{status}</span>;
}
