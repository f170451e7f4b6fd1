/**
 * What a finished console action changed, said once it is done (docs/product.md §6 "every dialog
 * ends the same way"): a sentence, and a link to what it created or changed. Dialogs (loaded on
 * demand) announce it; the console layout's OutcomeHost, mounted with every page, shows it after
 * the dialog has closed. A plain module store rather than a React context, so an announcement
 * survives the dialog that made it unmounting.
 */
export type Outcome = { message: string; link?: { href: string; label: string } };

const listeners = new Set<(outcome: Outcome) => void>();

/** Shows `outcome` in the page's outcome banner (replacing the one shown). */
export function announceOutcome(outcome: Outcome): void {
  for (const listener of listeners) listener(outcome);
}

/** @returns the unsubscribe function. */
export function onOutcome(listener: (outcome: Outcome) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
