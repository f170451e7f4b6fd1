'use client';

import Link from 'next/link';
import { useEffect, useRef } from 'react';
import type { Outcome } from './outcome';

/**
 * What the last action changed, fixed at the foot of the window (so it shows wherever the page
 * is scrolled) until dismissed or replaced. When the dialog that made it closed onto nothing to
 * focus — its opener gone or disabled, as Reserve… is once the selection is cleared — focus
 * lands here, never on the page's body.
 */
export function OutcomeBanner({ outcome, onDismiss }: { outcome: Outcome; onDismiss: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || (active instanceof HTMLButtonElement && active.disabled)) ref.current?.focus();
  }, []);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      data-testid="outcome-banner"
      className="fixed inset-x-3 bottom-3 z-40 mx-auto flex max-w-xl items-start gap-3 rounded-lg border border-ok-line bg-ok-soft px-4 py-3 text-sm text-ok-ink shadow-lg focus:outline-none focus-visible:ring-2 focus-visible:ring-ok"
    >
      <p className="flex-1">
        {outcome.message}
        {outcome.link && (
          <>
            {' '}
            <Link href={outcome.link.href} className="font-medium text-accent-ink underline">
              {outcome.link.label}
            </Link>
          </>
        )}
      </p>
      <button type="button" onClick={onDismiss} aria-label="Dismiss" className="rounded px-1.5 text-ok-ink hover:bg-ok-soft-2">
        ×
      </button>
    </div>
  );
}
