import Link from 'next/link';
import type { ReactNode } from 'react';
import { Time } from '../time-zone';
import type { RouterOutputs } from '../trpc-types';
import type { ChartPoint } from './chart-points';
import { UtilisationChartIsland } from './utilisation-chart-island';

type Summary = RouterOutputs['utilisation']['reservation'];
type Figures = Summary['totals'];
type Point = Summary['series'][number];
export type UtilisationWindowName = Summary['window'];

/** GPU-hours to a tenth; a little time, under a tenth, is said so rather than as 0. */
const gpuHours = (n: number) => (n > 0 && n < 0.1 ? '< 0.1' : n.toLocaleString('en', { maximumFractionDigits: 1 }));
const shareOf = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)} % of held` : undefined);

/** The figures, in the words of docs/product.md §5.8 Utilisation. */
function figureLines(t: Figures): [label: string, value: string, testId: string, hint: string, note?: string][] {
  return [
    ['Held', `${gpuHours(t.heldGpuHours)} GPU-h`, 'held', 'unit-hours the reservation held'],
    ['Idle while held', `${gpuHours(t.idleGpuHours)} GPU-h`, 'idle', 'held, with no VM running on the unit', shareOf(t.idleGpuHours, t.heldGpuHours)],
    ['Released', `${gpuHours(t.releasedGpuHours)} GPU-h`, 'released', 'on the spot market'],
    ['Released, idle', `${gpuHours(t.idleReleasedGpuHours)} GPU-h`, 'idle-released', 'released, with no spot VM on it'],
    ['Used by spot', `${gpuHours(t.spotGpuHours)} GPU-h`, 'spot', 'spot VMs on its units'],
    ['Used by the audience', `${gpuHours(t.reservedTierGpuHours)} GPU-h`, 'reserved-tier', 'reserved-tier VMs on its units'],
    ['Evictions', String(t.evictions), 'evictions', 'spot VMs a reclaim ended'],
  ];
}

/** A bucket's label on the chart's axis: the day (30 d), or the day and hour (7 d), in UTC. */
function labelOf(p: Point, window: UtilisationWindowName): string {
  const d = new Date(p.from);
  const day = `${d.getUTCDate()} ${d.toLocaleString('en', { month: 'short', timeZone: 'UTC' })}`;
  return window === '30d' ? day : `${day} ${String(d.getUTCHours()).padStart(2, '0')}h`;
}

function chartPoints(series: Point[], window: UtilisationWindowName): ChartPoint[] {
  return series.map((p) => ({
    label: labelOf(p, window),
    reservedTier: p.reservedTierGpuHours,
    spot: p.spotGpuHours,
    idleReleased: p.idleReleasedGpuHours,
    // Held, not released and idle: what is left of held once the other three are taken.
    idleHeld: Math.max(0, Math.round((p.heldGpuHours - p.reservedTierGpuHours - p.spotGpuHours - p.idleReleasedGpuHours) * 1000) / 1000),
  }));
}

/** The 7 d / 30 d switch: links (the window is the URL's `window`), the current one marked. */
export function WindowSwitch({ current, hrefFor }: { current: UtilisationWindowName; hrefFor: (w: UtilisationWindowName) => string }) {
  return (
    <nav aria-label="Utilisation window" className="flex gap-1 text-sm" data-testid="utilisation-window">
      {(['7d', '30d'] as const).map((w) => (
        <Link
          key={w}
          href={hrefFor(w)}
          prefetch={false}
          aria-current={w === current ? 'page' : undefined}
          className={`rounded-md border px-2.5 py-1 ${w === current ? 'border-accent-line bg-accent-soft font-medium text-accent-ink' : 'border-line text-ink-3 hover:text-ink'}`}
        >
          {w === '7d' ? 'Last 7 days' : 'Last 30 days'}
        </Link>
      ))}
    </nav>
  );
}

/**
 * One utilisation summary (a reservation's, or a relation's roll-up; docs/product.md §5.8
 * Utilisation): the totals as figures, the series as a chart loaded on demand, and the same
 * series as a table for keyboards and screen readers. A server component: only the chart is
 * client code.
 */
export function UtilisationSummary({
  summary,
  testId,
  name,
  caption,
}: {
  summary: Omit<Summary, 'nodeId' | 'reservationId'>;
  testId: string;
  /** What the figures are of, naming the table's scrolling region (unique on the page). */
  name: string;
  caption: ReactNode;
}) {
  const t = summary.totals;
  const points = chartPoints(summary.series, summary.window);
  const windowWords = summary.window === '7d' ? 'the last 7 days, in 6-hour buckets' : 'the last 30 days, by day';
  return (
    <div className="space-y-4" data-testid={testId}>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7" data-testid="utilisation-figures">
        {figureLines(t).map(([label, value, id, hint, note]) => (
          <div key={id} className="rounded-lg border border-line-soft bg-surface-2 px-3 py-2">
            <dt className="text-xs text-ink-4" title={hint}>
              {label}
            </dt>
            <dd className="whitespace-nowrap font-mono text-sm font-medium text-ink sm:text-base" data-testid={`utilisation-${id}`}>
              {value}
            </dd>
            {note && <dd className="text-xs text-ink-4">{note}</dd>}
          </div>
        ))}
      </dl>
      <p className="text-xs text-ink-3">
        {caption} Over {windowWords}: <Time iso={summary.from} /> to <Time iso={summary.to} />.
      </p>
      <UtilisationChartIsland
        points={points}
        label={`Chart of the held GPU-hours over ${windowWords}, split into the audience’s VMs, spot VMs, released and idle, and held and idle; the table below lists the same figures.`}
      />
      <details className="text-sm">
        <summary className="cursor-pointer text-accent-ink hover:underline">The series as a table</summary>
        {/* Focusable, so a keyboard can scroll it (axe scrollable-region-focusable). */}
        <div className="relative mt-2 max-h-96 max-w-full overflow-auto" tabIndex={0} role="region" aria-label={`${name}: the series as a table`}>
          <table className="w-full text-left text-xs" data-testid="utilisation-table">
            <caption className="sr-only">GPU-hours per bucket over {windowWords}</caption>
            <thead className="sticky top-0 bg-surface text-ink-4">
              <tr>
                {['From', 'Held', 'Idle', 'Released', 'Released, idle', 'Spot', 'Audience', 'Evictions'].map((h) => (
                  <th key={h} scope="col" className="py-1.5 pr-3 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line-soft font-mono">
              {summary.series.map((p) => (
                <tr key={p.from}>
                  <th scope="row" className="whitespace-nowrap py-1 pr-3 font-sans font-normal">
                    <Time iso={p.from} />
                  </th>
                  <td className="pr-3">{gpuHours(p.heldGpuHours)}</td>
                  <td className="pr-3">{gpuHours(p.idleGpuHours)}</td>
                  <td className="pr-3">{gpuHours(p.releasedGpuHours)}</td>
                  <td className="pr-3">{gpuHours(p.idleReleasedGpuHours)}</td>
                  <td className="pr-3">{gpuHours(p.spotGpuHours)}</td>
                  <td className="pr-3">{gpuHours(p.reservedTierGpuHours)}</td>
                  <td className="pr-3">{p.evictions}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
