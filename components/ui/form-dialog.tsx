'use client';

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { errorMessage } from '../problem';

/**
 * A labelled modal dialog around a form: fields, a submit button that says what it does, and
 * the problem `detail` when the server refuses (fields show their own `errors[]` through
 * `fieldErrors`, given the error this dialog reports to `children`). Closes on success unless
 * `keepOpenOnSuccess` (to show a result, e.g. a secret shown once).
 */
export function FormDialog(props: {
  title: ReactNode;
  description?: ReactNode;
  submitLabel: string;
  /** Runs on submit; a thrown error is shown, and handed to `children` for field errors. */
  onSubmit: () => Promise<unknown>;
  onClose: () => void;
  children: (error: unknown) => ReactNode;
  tone?: 'danger' | 'primary';
  submitDisabled?: boolean;
}) {
  const { title, description, submitLabel, onSubmit, onClose, children, tone = 'primary', submitDisabled } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setPending(true);
    try {
      await onSubmit();
      setError(null);
      dialog.current?.close();
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  }

  const button = tone === 'danger' ? 'bg-red-600 hover:bg-red-700' : 'bg-indigo-600 hover:bg-indigo-700';
  return (
    <dialog ref={dialog} onClose={onClose} aria-labelledby={titleId} className="m-auto w-[min(40rem,calc(100vw-2rem))] rounded-xl border border-slate-200 p-0 shadow-2xl backdrop:bg-slate-900/40">
      <form onSubmit={submit}>
        <div className="border-b border-slate-200 px-6 py-4">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
        </div>
        <div className="max-h-[65vh] space-y-4 overflow-y-auto px-6 py-4">
          {children(error)}
          {error !== null && (
            <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
              {errorMessage(error)}
            </p>
          )}
        </div>
        <div className="flex justify-end gap-2 border-t border-slate-200 bg-slate-50 px-6 py-3">
          <button type="button" onClick={() => dialog.current?.close()} className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100">
            Cancel
          </button>
          <button type="submit" disabled={pending || submitDisabled} className={`rounded-md px-4 py-2 text-sm font-semibold text-white shadow-sm disabled:cursor-not-allowed disabled:opacity-50 ${button}`}>
            {pending ? 'Working…' : submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** A labelled form field with the problem's messages for it underneath. */
export function Field(props: { label: ReactNode; hint?: ReactNode; errors?: string[]; children: ReactNode }) {
  const { label, hint, errors = [], children } = props;
  return (
    <label className="block text-sm font-medium text-slate-700">
      {label} {hint && <span className="font-normal text-slate-500">{hint}</span>}
      <div className="mt-1">{children}</div>
      {errors.map((m) => (
        <span key={m} className="mt-1 block text-xs font-normal text-red-700">
          {m}
        </span>
      ))}
    </label>
  );
}

export const inputClass = 'block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500';
