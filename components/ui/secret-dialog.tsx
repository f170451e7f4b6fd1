'use client';

import { useState, type ReactNode } from 'react';
import { Modal, buttonStyles } from './modal';

/**
 * The one time a secret shows (docs/product.md §6: an API key's, a webhook's signing secret):
 * with a copy button, and the warning that it cannot be shown again. Closing it drops the secret:
 * the parent holds it in state only while this is open.
 * @param what the secret's name in the copy button's label ("the API key").
 */
export function SecretDialog(props: {
  title: string;
  testId: string;
  secretTestId: string;
  secret: string;
  what: string;
  children: ReactNode;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(props.secret);
      setCopied('yes');
    } catch {
      // No clipboard (an insecure origin, a denied permission): the secret can still be selected.
      setCopied('failed');
    }
  }
  return (
    <Modal
      title={props.title}
      testId={props.testId}
      onClose={props.onClose}
      actions={(close) => (
        <button type="button" onClick={close} className={buttonStyles.primary}>
          Done
        </button>
      )}
    >
      {props.children}
      <div className="flex items-center gap-2">
        <code
          data-testid={props.secretTestId}
          className="block flex-1 select-all break-all rounded-md border border-line-strong bg-surface-2 px-3 py-2 font-mono text-xs"
        >
          {props.secret}
        </code>
        <button type="button" onClick={copy} aria-label={`Copy ${props.what}`} className={buttonStyles.secondary}>
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p role="status" className="text-xs text-ink-3">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? `Copying failed: select ${props.what} and copy it yourself.` : ''}
      </p>
    </Modal>
  );
}
