'use client';

import { Suspense, useEffect, useState } from 'react';
import { lazyWithTrpc } from '../live/lazy-with-trpc';
import { offers } from '../offers';

// The chart and its data layer load on demand (lazyWithTrpc): never in the node page's first-load JS.
const NodeTimeline = lazyWithTrpc(() => import('./node-timeline').then((m) => m.NodeTimeline));

/**
 * The node page's "Timeline" section (docs/product.md §5.8 Node timeline, §6): its heading and
 * a **Show timeline** button; the chart loads when asked for, or at once when the URL already
 * names a window (`tlZoom`: a reload, a shared link). Until then the page makes no client data
 * call (it refreshes from the server's render, e2e/console/live.spec.ts), and the server's HTML
 * holds none of it: the chart reads its window from the URL and draws against the browser's clock.
 */
export function TimelineSection({ nodeId }: { nodeId: string }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (new URLSearchParams(window.location.search).has('tlZoom')) setOpen(true);
  }, []);
  return (
    <section className="min-w-0 rounded-lg border border-line bg-surface p-4" aria-labelledby="timeline-heading" data-testid="timeline-section">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="timeline-heading" className="text-lg font-semibold">
          Timeline
        </h2>
        {!open && (
          <button
            type="button"
            onClick={() => setOpen(true)}
            aria-expanded={false}
            className="rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm font-medium hover:bg-surface-2"
            {...offers('node.timeline')}
          >
            Show timeline
          </button>
        )}
      </div>
      {open ? (
        <Suspense fallback={<p className="text-sm text-ink-4">Loading the timeline…</p>}>
          <NodeTimeline nodeId={nodeId} />
        </Suspense>
      ) : (
        <p className="text-sm text-ink-3">Reservations, releases, VMs, reclaims and topology changes on this node over time, as far as you may see them.</p>
      )}
    </section>
  );
}
