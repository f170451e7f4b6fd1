'use client';

import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { DialogFrame } from './dialog-frame';

/**
 * Preview, then confirm (docs/product.md §6): the dialog every destructive console action
 * shares. It runs the action's dry run when it opens and shows what would happen; the confirm
 * button says what it will do; when the confirm finds that the previewed state changed
 * meanwhile (`isStale`), it previews again, marks the new preview as changed and asks again.
 * After the action it shows the result until closed. A preview that leaves nothing to do
 * (`canConfirm`) offers no confirm at all. A labelled modal `dialog`.
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
  /** Whether the preview leaves anything to do; when not, the dialog offers no confirm (docs/product.md §6). */
  canConfirm?: (preview: P) => boolean;
  /** The action itself, given the preview the person confirmed. */
  confirm: (preview: P) => Promise<R>;
  /** Whether a failed confirm means the preview is out of date (preview again and re-ask). */
  isStale?: (error: unknown) => boolean;
  /** Runs before the new preview when the old one was stale (e.g. refresh data it shows). */
  onStale?: () => Promise<unknown>;
  renderResult: (result: R) => ReactNode;
  onClose: () => void;
  onDone?: (result: R) => void;
  /** Extra fields under the preview (a reason, say), or a function of the preview to give them. */
  children?: ReactNode | ((preview: P) => ReactNode);
  tone?: 'danger' | 'primary';
  /** What the person typed or chose that the last error was about: when it changes, the error is no longer shown (it is judged again on confirm). */
  errorFor?: unknown;
}) {
  const {
    title,
    subtitle,
    preview: runPreview,
    renderPreview,
    confirmLabel,
    canConfirm = () => true,
    confirm,
    isStale,
    onStale,
    renderResult,
    onClose,
    onDone,
    children,
    tone = 'danger',
    errorFor,
  } = props;
  const [preview, setPreview] = useState<{ value: P; changed: boolean } | null>(null);
  const [result, setResult] = useState<{ value: R } | null>(null);
  const [pending, setPending] = useState<'preview' | 'confirm' | null>('preview');
  const [error, setError] = useState<unknown>(null);
  // Adjusting state while rendering: React's pattern for state that follows a prop.
  const [erredFor, setErredFor] = useState(errorFor);
  if (!Object.is(erredFor, errorFor)) {
    setErredFor(errorFor);
    setError(null);
  }

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

  return (
    <DialogFrame
      title={title}
      subtitle={subtitle && <span className="font-mono text-xs text-ink-4">{subtitle}</span>}
      onClose={onClose}
      error={error}
      dismissLabel={result || (preview && !canConfirm(preview.value)) ? 'Close' : 'Cancel'}
      action={
        result || (preview && !canConfirm(preview.value))
          ? undefined
          : { label: preview ? confirmLabel(preview.value) : 'Previewing…', disabled: !preview || pending !== null, onClick: onConfirm, tone }
      }
    >
      {result ? (
        renderResult(result.value)
      ) : !preview ? (
        <p className="text-sm text-ink-3">{pending === 'preview' ? 'Previewing what this would do…' : ''}</p>
      ) : (
        <>
          {renderPreview(preview.value, preview.changed)}
          {typeof children === 'function' ? children(preview.value) : children}
        </>
      )}
    </DialogFrame>
  );
}
