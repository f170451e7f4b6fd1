'use client';

import { keepFocusIn } from './keep-focus-in';
import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal `dialog` labelled by its title, for the console's confirmations and one-time
 * answers (a revoke, a new key's secret). Escape and `close` end it through `onClose`, so the
 * parent unmounts it. For destructive actions with a dry run, use PreviewDialog.
 */
export function Modal(props: {
  title: ReactNode;
  children: ReactNode;
  /** The buttons; `close` closes the dialog (and so calls `onClose`). */
  actions: (close: () => void) => ReactNode;
  onClose: () => void;
  testId?: string;
}) {
  const { title, children, actions, onClose, testId } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const labelId = useId();
  useEffect(() => {
    if (!ref.current?.open) ref.current?.showModal();
  }, []);
  const close = () => ref.current?.close();
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      onKeyDown={keepFocusIn}
      aria-labelledby={labelId}
      data-testid={testId}
      className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-xl border border-line p-0 shadow-2xl backdrop:bg-backdrop"
    >
      <h2 id={labelId} className="border-b border-line px-6 py-4 text-lg font-semibold">
        {title}
      </h2>
      <div className="space-y-3 px-6 py-4 text-sm">{children}</div>
      <div className="flex justify-end gap-2 border-t border-line bg-surface-2 px-6 py-3">{actions(close)}</div>
    </dialog>
  );
}

/** The console's button styles, so dialogs and forms agree. */
export const buttonStyles = {
  secondary: 'rounded-md border border-line-strong bg-surface px-4 py-2 text-sm font-medium hover:bg-surface-3 disabled:opacity-50',
  primary:
    'rounded-md bg-accent px-4 py-2 text-sm font-semibold text-on-accent shadow-sm hover:bg-accent-strong disabled:cursor-not-allowed disabled:opacity-50',
  danger:
    'rounded-md bg-danger-solid px-4 py-2 text-sm font-semibold text-on-accent shadow-sm hover:bg-danger-solid-strong disabled:cursor-not-allowed disabled:opacity-50',
} as const;
