'use client';

import type { CreatedApiKey } from '../trpc-types';
import { SecretDialog } from '../ui/secret-dialog';

/**
 * The one time a new key's secret shows (docs/product.md §6: "secret shown once"). The server
 * keeps only its hash.
 */
export function NewKeyDialog({ apiKey, onClose }: { apiKey: CreatedApiKey; onClose: () => void }) {
  return (
    <SecretDialog
      title={`API key “${apiKey.name}” created`}
      testId="new-key-dialog"
      secretTestId="new-key-secret"
      secret={apiKey.secret}
      what="the API key"
      onClose={onClose}
    >
      <p>
        Copy the key now: <strong>it is shown this once</strong> and cannot be shown again. Send it as{' '}
        <code className="font-mono text-xs">Authorization: Bearer &lt;key&gt;</code>.
      </p>
    </SecretDialog>
  );
}
