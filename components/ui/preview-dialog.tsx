'use client';

import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '../problem';

/**
 * Preview, then confirm (docs/product.md §6): the dialog every destructive console action
 * shares. It runs the action's dry run when it opens and shows what would happen; the confirm
 * button says what it will do; when the confirm finds that the previewed state changed
 * meanwhile (`isStale`), it previews again, marks the new preview as changed and asks again.
 * After the action it shows the result until closed. A labelled modal `dialog`.
 *
 * @typeParam P what the dry run answers; R what the action answers.
 */
export function PreviewDialog<P, R>(props: {
  title: ReactNode;
  subtitle?: ReactNode;
  /** The dry run: what the action would do now. */
  preview: () => Promise<P>;
  renderPreview: (preview: P, changed: boolean) => ReactNode;
  /** The confirm button's words, e.g. "Terminate 3 spot VMs and reclaim 4 units". */
  confirmLabel: (preview: P) => string;
  /** The action itself, given the preview the person confirmed. */
  confirm: (preview: P) => Promise<R>;
  /** Whether a failed confirm means the preview is out of date (preview again and re-ask). */
  isStale?: (error: unknown) => boolean;
  /** Runs before the new preview when the old one was stale (e.g. refresh data it shows). */
  onStale?: () => Promise<unknown>;
  renderResult: (result: R) => ReactNode;
  onClose: () => void;
  onDone?: (result: R) => void;
  /** Extra fields under the preview (a reason, say). */
  children?: ReactNode;
  tone?: 'danger' | 'primary';
}) {
  const { title, subtitle, preview: runPreview, renderPreview, confirmLabel, confirm, isStale, onStale, renderResult, onClose, onDone, children, tone = 'danger' } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [preview, setPreview] = useState<{ value: P; changed: boolean } | null>(null);
  const [result, setResult] = useState<{ value: R } | null>(null);
  const [pending, setPending] = useState<'preview' | 'confirm' | null>('preview');
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(
    async (changed: boolean) => {
      setPending('preview');
      try {
        setPreview({ value: await runPreview(), changed });
        setError(null);
      } catch (e) {
        setError(e);
      } finally {
        setPending(null);
      }
    },
    [runPreview],
  );

  // React's dev double-invocation of effects must not run the dry run twice.
  const started = useRef(false);
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
    if (started.current) return;
    started.current = true;
    void load(false);
  }, [load]);

  async function onConfirm() {
    if (!preview) return;
    setPending('confirm');
    try {
      const value = await confirm(preview.value);
      setResult({ value });
      setError(null);
      onDone?.(value);
    } catch (e) {
      if (isStale?.(e)) {
        await onStale?.().catch(() => {});
        setPending(null);
        await load(true);
        return;
      }
      setError(e);
    } finally {
      setPending((p) => (p === 'confirm' ? null : p));
    }
  }

  const button = tone === 'danger' ? 'bg-red-600 hover:bg-red-700' : 'bg-indigo-600 hover:bg-indigo-700';
  return (
    <dialog ref={dialog} onClose={onClose} aria-labelledby={titleId} className="m-auto w-[min(44rem,calc(100vw-2rem))] rounded-xl border border-slate-200 p-0 shadow-2xl backdrop:bg-slate-900/40">
      <div className="border-b border-slate-200 px-6 py-4">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {subtitle && <p className="mt-1 font-mono text-xs text-slate-500">{subtitle}</p>}
      </div>

      <div className="max-h-[60vh] space-y-4 overflow-y-auto px-6 py-4">
        {result ? (
          renderResult(result.value)
        ) : !preview ? (
          <p className="text-sm text-slate-600">{pending === 'preview' ? 'Previewing what this would do…' : ''}</p>
        ) : (
          <>
            {renderPreview(preview.value, preview.changed)}
            {children}
          </>
        )}
        {error !== null && (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            {errorMessage(error)}
          </p>
        )}
      </div>

      <div className="flex justify-end gap-2 border-t border-slate-200 bg-slate-50 px-6 py-3">
        <button type="button" onClick={() => dialog.current?.close()} className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100">
          {result ? 'Close' : 'Cancel'}
        </button>
        {!result && (
          <button type="button" disabled={!preview || pending !== null} onClick={onConfirm} className={`rounded-md px-4 py-2 text-sm font-semibold text-white shadow-sm disabled:cursor-not-allowed disabled:opacity-50 ${button}`}>
            {preview ? confirmLabel(preview.value) : 'Previewing…'}
          </button>
        )}
      </div>
    </dialog>
  );
}
