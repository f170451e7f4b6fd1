'use client';

import { keepFocusIn } from './keep-focus-in';
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { useActingOrgSwitch } from '../acting-org';
import { errorMessage } from '../problem-words';
import { useTimeZone } from '../time-zone';

/**
 * The frame every console dialog shares: a labelled modal `dialog` (opened on mount), its
 * title and subtitle, a scrolling body, the last error in words (components/problem.ts), and a
 * footer with the dismiss button and the action the dialog exists for. A new error is scrolled
 * into view where it is said first: beside its field when a field names it, else the alert.
 */
export function DialogFrame(props: {
  title: ReactNode;
  subtitle?: ReactNode;
  onClose: () => void;
  error: unknown;
  /** The dismiss button's words ("Cancel", or "Close" once done). */
  dismissLabel?: string;
  /** The footer's action button; absent once there is nothing left to do. */
  action?: { label: string; disabled: boolean; onClick?: () => void; submit?: boolean; tone: 'danger' | 'primary' };
  /** Wraps body and footer in a form whose submit runs `onSubmit`. */
  onSubmit?: (e: React.FormEvent) => void;
  children: ReactNode;
  dialogRef?: RefObject<HTMLDialogElement | null>;
}) {
  const { title, subtitle, onClose, error, dismissLabel = 'Cancel', action, onSubmit, children } = props;
  const own = useRef<HTMLDialogElement>(null);
  const dialog = props.dialogRef ?? own;
  const titleId = useId();
  const { orgName, switchedTo } = useActingOrgSwitch();
  const { zone } = useTimeZone();
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, [dialog]);
  useEffect(() => {
    if (error === null || error === undefined) return;
    const first = dialog.current?.querySelector('[data-field-error]') ?? dialog.current?.querySelector('[data-dialog-error]');
    first?.scrollIntoView({ block: 'nearest' });
  }, [dialog, error]);

  const tone = action?.tone === 'danger' ? 'bg-danger-solid hover:bg-danger-solid-strong' : 'bg-accent hover:bg-accent-strong';
  const inner = (
    <>
      <div className="border-b border-line px-6 py-4">
        <h2 id={titleId} className="text-lg font-semibold [overflow-wrap:anywhere]">
          {title}
        </h2>
        {subtitle && <div className="mt-1 text-sm text-ink-3">{subtitle}</div>}
      </div>
      <div className="max-h-[62vh] space-y-4 overflow-y-auto px-6 py-4">
        {switchedTo && (
          <p role="alert" data-testid="org-switched" className="rounded-md border border-warn-line bg-warn-soft p-3 text-sm text-warn-ink">
            You switched to {switchedTo.orgName ?? 'another org'} in another tab. This dialog was opened as {orgName}, so it sends nothing now. What you typed
            is still here: copy what you need, then close the dialog and the page reloads as {switchedTo.orgName ?? 'the new org'}.
          </p>
        )}
        {children}
        {error !== null && error !== undefined && (
          <p role="alert" data-dialog-error className="rounded-md border border-danger-line bg-danger-soft p-3 text-sm text-danger-ink">
            {errorMessage(error, zone)}
          </p>
        )}
      </div>
      <div className="flex justify-end gap-2 border-t border-line bg-surface-2 px-6 py-3">
        <button
          type="button"
          onClick={() => dialog.current?.close()}
          className="rounded-md border border-line-strong bg-surface px-4 py-2 text-sm font-medium hover:bg-surface-3"
        >
          {dismissLabel}
        </button>
        {action && (
          <button
            type={action.submit ? 'submit' : 'button'}
            disabled={action.disabled || switchedTo !== null}
            onClick={action.onClick}
            className={`rounded-md px-4 py-2 text-sm font-semibold text-on-accent shadow-sm disabled:cursor-not-allowed disabled:opacity-50 ${tone}`}
          >
            {action.label}
          </button>
        )}
      </div>
    </>
  );
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      onKeyDown={keepFocusIn}
      aria-labelledby={titleId}
      className="m-auto w-[min(44rem,calc(100vw-2rem))] rounded-xl border border-line p-0 shadow-2xl backdrop:bg-backdrop"
    >
      {onSubmit ? <form onSubmit={onSubmit}>{inner}</form> : inner}
    </dialog>
  );
}
