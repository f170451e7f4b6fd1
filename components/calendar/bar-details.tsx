'use client';

import { useState, type ReactNode } from 'react';

/**
 * Shows the details of the calendar bar under the pointer or with the focus (its `data-details`,
 * written on the server in the console's zone) in a line above the chart: one listener on the
 * chart for every bar, so the bars stay server-rendered markup and the page ships no chart code.
 * The line is for sighted readers; each bar's link already names the same details (aria-label).
 */
export function BarDetails({ children }: { children: ReactNode }) {
  const [details, setDetails] = useState<string | null>(null);
  const show = (target: EventTarget | null) => {
    const bar = target instanceof Element ? target.closest<HTMLElement>('[data-details]') : null;
    if (bar) setDetails(bar.dataset.details ?? null);
  };
  return (
    <div onMouseOver={(e) => show(e.target)} onFocus={(e) => show(e.target)}>
      <p aria-hidden data-testid="bar-details" className="mb-2 min-h-5 text-sm text-ink-2 [overflow-wrap:anywhere]">
        {details ?? 'Point at or tab to a bar for its details.'}
      </p>
      {children}
    </div>
  );
}
