'use client';

import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useRefreshPage } from '../live/use-refresh-page';
import { announceOutcome, type Outcome } from '../live/outcome';
import { DialogFrame } from './dialog-frame';

/**
 * A labelled modal dialog around a form: fields, a submit button that says what it does, and
 * the problem in words when the server refuses (fields show their own `errors[]` through
 * `fieldErrors`, given the error this dialog reports to `children`). On success it refreshes
 * every query of the page, says what changed (`outcome`, shown by the page's outcome banner
 * once the dialog is gone), runs `onDone` (a page clears its selection) and closes, focus going
 * back to the button that opened it. When a refusal means that what the form showed is out of
 * date (`isStale`, e.g. 409 topology_changed), it is no error: `onStale` shows the new state and
 * the form stays open to be submitted again, as PreviewDialog does with a stale preview.
 * A submit may also end in a next step rather than an outcome (`outcome` answers null): the
 * dialog then stays open, as re-affirm does after removing a missing unit.
 */
export function FormDialog<R>(props: {
  title: ReactNode;
  description?: ReactNode;
  submitLabel: string;
  /** Runs on submit; a thrown error is shown, and handed to `children` for field errors. */
  onSubmit: () => Promise<R>;
  /** What the submit changed, in words and with a link to it; null when the dialog goes on to a next step. */
  outcome: (result: R) => Outcome | null;
  /** After a change (the outcome announced), e.g. to clear the page's selection. */
  onDone?: (result: R) => void;
  onClose: () => void;
  children: (error: unknown) => ReactNode;
  tone?: 'danger' | 'primary';
  submitDisabled?: boolean;
  /** Whether a failed submit means the state the form was based on changed meanwhile. */
  isStale?: (error: unknown) => boolean;
  /** Runs when it did (load and show the new state); the form then asks again. */
  onStale?: () => Promise<unknown>;
}) {
  const { title, description, submitLabel, onSubmit, outcome, onDone, onClose, children, tone = 'primary', submitDisabled, isStale, onStale } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const refreshPage = useRefreshPage();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setPending(true);
    try {
      const result = await onSubmit();
      // Whatever the form changed, every query of the page may show something else now.
      await refreshPage();
      setError(null);
      const said = outcome(result);
      if (said === null) return;
      announceOutcome(said);
      onDone?.(result);
      dialog.current?.close();
    } catch (err) {
      if (isStale?.(err)) {
        await onStale?.().catch(() => {});
        setError(null);
      } else setError(err);
    } finally {
      setPending(false);
    }
  }

  return (
    <DialogFrame
      dialogRef={dialog}
      title={title}
      subtitle={description}
      onClose={onClose}
      error={error}
      onSubmit={submit}
      action={{ label: pending ? 'Working…' : submitLabel, disabled: pending || Boolean(submitDisabled), submit: true, tone }}
    >
      {children(error)}
    </DialogFrame>
  );
}

/** A labelled form field with the problem's messages for it underneath. */
export function Field(props: { label: ReactNode; hint?: ReactNode; errors?: string[]; children: ReactNode }) {
  const { label, hint, errors = [], children } = props;
  return (
    <label className="block text-sm font-medium text-ink-2">
      {label} {hint && <span className="font-normal text-ink-4">{hint}</span>}
      <div className="mt-1">{children}</div>
      {errors.map((m) => (
        <span key={m} data-field-error className="mt-1 block text-xs font-normal text-danger">
          {m}
        </span>
      ))}
    </label>
  );
}

export const inputClass =
  'block w-full rounded-md border border-line-strong px-3 py-1.5 text-sm shadow-sm focus:border-focus focus:outline-none focus:ring-1 focus:ring-focus';
