'use client';

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
      aria-labelledby={labelId}
      data-testid={testId}
      className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-xl border border-slate-200 p-0 shadow-2xl backdrop:bg-slate-900/40"
    >
      <h2 id={labelId} className="border-b border-slate-200 px-6 py-4 text-lg font-semibold">
        {title}
      </h2>
      <div className="space-y-3 px-6 py-4 text-sm">{children}</div>
      <div className="flex justify-end gap-2 border-t border-slate-200 bg-slate-50 px-6 py-3">{actions(close)}</div>
    </dialog>
  );
}

/** The console's button styles, so dialogs and forms agree. */
export const buttonStyles = {
  secondary: 'rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100 disabled:opacity-50',
  primary: 'rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-50',
  danger: 'rounded-md bg-red-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-50',
} as const;
