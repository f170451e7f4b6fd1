import type { KeyboardEvent } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog's Tab and Shift+Tab cycle inside it (issue 23, docs/product.md §6 "Themes and
 * accessibility"). `showModal()` makes the page behind inert, but Chromium still lets Tab leave
 * the dialog once per cycle, for the browser's own controls; this wraps from the last focusable
 * control to the first and back instead. The `onKeyDown` of the `<dialog>`.
 */
export function keepFocusIn(e: KeyboardEvent<HTMLElement>): void {
  if (e.key !== 'Tab') return;
  const inside = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
  const first = inside[0];
  const last = inside[inside.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (e.shiftKey && (active === first || !e.currentTarget.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !e.currentTarget.contains(active))) {
    e.preventDefault();
    first.focus();
  }
}
