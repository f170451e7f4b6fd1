'use client';

import { useMutation } from '@tanstack/react-query';
import { useRefreshPage } from '../live/use-refresh-page';
import { errorMessage } from '../problem-words';
import { useTRPC } from '../trpc-provider';
import type { ApiKeyView } from '../trpc-types';
import { Modal, buttonStyles } from '../ui/modal';

/**
 * Asks before revoking a key (docs/product.md §6): revoking cannot be undone, and every program
 * using the key is refused (401) from its next request. Refreshes the key list when done.
 */
export function RevokeKeyDialog({ apiKey, onClose }: { apiKey: ApiKeyView; onClose: () => void }) {
  const trpc = useTRPC();
  const refreshPage = useRefreshPage();
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: async () => {
        await refreshPage();
        onClose();
      },
    }),
  );
  return (
    <Modal
      title={`Revoke API key “${apiKey.name}”?`}
      onClose={onClose}
      actions={(close) => (
        <>
          <button type="button" onClick={close} className={buttonStyles.secondary}>
            Cancel
          </button>
          <button type="button" disabled={revoke.isPending} onClick={() => revoke.mutate({ apiKeyId: apiKey.id })} className={buttonStyles.danger}>
            {revoke.isPending ? 'Revoking…' : 'Revoke key'}
          </button>
        </>
      )}
    >
      <p>
        Programs using <code className="font-mono text-xs">{apiKey.prefix}…</code> are refused from their next request. This cannot be undone: to use the API
        again, create a new key.
      </p>
      {revoke.isError && (
        <p role="alert" className="rounded-md border border-danger-line bg-danger-soft p-3 text-danger-ink">
          {errorMessage(revoke.error)}
        </p>
      )}
    </Modal>
  );
}
