'use client';

import { Suspense, useEffect, useState } from 'react';
import { lazyWithTrpc } from '../live/lazy-with-trpc';
import { offers } from '../offers';

// The chart and its data layer load on demand (lazyWithTrpc): never in the node page's first-load JS.
const NodeTimeline = lazyWithTrpc(() => import('./node-timeline').then((m) => m.NodeTimeline));

/** The node page's "Timeline" section (docs/product.md §5.8 Node timeline, §6): its heading, and the chart once loaded. */
export function TimelineSection({ nodeId }: { nodeId: string }) {
  // Client only: the chart reads its window from the URL and draws against the browser's clock,
  // and the server's HTML needs none of it (the grid above is the first paint).
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <section
      className="min-w-0 rounded-lg border border-line bg-surface p-4"
      aria-labelledby="timeline-heading"
      data-testid="timeline-section"
      {...offers('node.timeline')}
    >
      <h2 id="timeline-heading" className="mb-3 text-lg font-semibold">
        Timeline
      </h2>
      <Suspense fallback={<p className="text-sm text-ink-4">Loading the timeline…</p>}>
        {mounted ? <NodeTimeline nodeId={nodeId} /> : <p className="text-sm text-ink-4">Loading the timeline…</p>}
      </Suspense>
    </section>
  );
}
