'use client';

import { formatCountdown } from './countdown';
import { Time } from './time-zone';

/**
 * A running VM's deadline (issue 22: `reclaimAt`, the earliest pending scheduled reclaim of its
 * units): "Reclaim at 9 Dec 2026, 09:00 UTC (in 2 h 5 min)", the same on the VM list, the node
 * page's VM table and the VM page, so a tenant knows before it comes.
 */
export function ReclaimDeadline({ at }: { at: string }) {
  const left = formatCountdown(at);
  return (
    // The countdown is of the clock of whoever renders it: the server's first HTML and the browser may differ by a minute.
    <span data-testid="vm-reclaim-at" className="block text-xs font-medium text-warn-ink" suppressHydrationWarning>
      Reclaim at <Time iso={at} /> ({left === 'due now' ? left : `in ${left}`})
    </span>
  );
}
