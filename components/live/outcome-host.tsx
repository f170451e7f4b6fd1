'use client';

import { lazy, Suspense, useEffect, useState } from 'react';
import { onOutcome, type Outcome } from './outcome';

// The banner itself loads with the first outcome: a page that never acts never loads it.
const OutcomeBanner = lazy(() => import('./outcome-banner').then((m) => ({ default: m.OutcomeBanner })));

/**
 * The console's live region for finished actions (components/live/outcome.ts): always in the
 * page, so a screen reader announces what appears in it; the banner loads on demand.
 */
export function OutcomeHost() {
  const [shown, setShown] = useState<{ outcome: Outcome; seq: number } | null>(null);
  useEffect(() => onOutcome((outcome) => setShown((s) => ({ outcome, seq: (s?.seq ?? 0) + 1 }))), []);
  return (
    <div role="status" aria-live="polite" data-testid="outcome">
      {shown && (
        <Suspense fallback={null}>
          <OutcomeBanner key={shown.seq} outcome={shown.outcome} onDismiss={() => setShown(null)} />
        </Suspense>
      )}
    </div>
  );
}
