'use client';

import { useState } from 'react';
import type { CreatedApiKey } from '../trpc-types';
import { Modal, buttonStyles } from '../ui/modal';

/**
 * The one time a new key's secret shows (docs/product.md §6: "secret shown once"): with a
 * copy button, and the warning that it cannot be shown again. Closing it drops the secret:
 * the parent holds it in state only while this is open, and the server keeps only its hash.
 */
export function NewKeyDialog({ apiKey, onClose }: { apiKey: CreatedApiKey; onClose: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(apiKey.secret);
      setCopied('yes');
    } catch {
      // No clipboard (an insecure origin, a denied permission): the key can still be selected.
      setCopied('failed');
    }
  }
  return (
    <Modal
      title={`API key “${apiKey.name}” created`}
      testId="new-key-dialog"
      onClose={onClose}
      actions={(close) => (
        <button type="button" onClick={close} className={buttonStyles.primary}>
          Done
        </button>
      )}
    >
      <p>
        Copy the key now: <strong>it is shown this once</strong> and cannot be shown again. Send it as{' '}
        <code className="font-mono text-xs">Authorization: Bearer &lt;key&gt;</code>.
      </p>
      <div className="flex items-center gap-2">
        <code
          data-testid="new-key-secret"
          className="block flex-1 select-all break-all rounded-md border border-line-strong bg-surface-2 px-3 py-2 font-mono text-xs"
        >
          {apiKey.secret}
        </code>
        <button type="button" onClick={copy} aria-label="Copy the API key" className={buttonStyles.secondary}>
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p role="status" className="text-xs text-ink-3">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Copying failed: select the key and copy it yourself.' : ''}
      </p>
    </Modal>
  );
}
