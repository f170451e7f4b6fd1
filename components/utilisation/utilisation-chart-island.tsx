'use client';

import dynamic from 'next/dynamic';
import type { ChartPoint } from './chart-points';

// On demand (issue 24 §6): the chart library loads after the page, in its own chunk, never in the
// first-load JS; the server renders a box of the chart's height in its place.
const Chart = dynamic(() => import('./utilisation-chart'), {
  ssr: false,
  loading: () => <div className="h-60 animate-pulse rounded-md bg-surface-3" />,
});

/** The chart's client island (./utilisation-chart.tsx), hidden from assistive technology: the table beside it says the same. */
export function UtilisationChartIsland({ points, label }: { points: ChartPoint[]; label: string }) {
  return (
    <div role="img" aria-label={label} data-testid="utilisation-chart" className="h-60">
      <div aria-hidden="true" className="h-full">
        <Chart points={points} />
      </div>
    </div>
  );
}
