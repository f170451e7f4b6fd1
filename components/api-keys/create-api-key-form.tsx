'use client';

import { useId, useState } from 'react';
import type { ConsoleClient } from '../live/trpc-client';
import { useServerCall } from '../live/use-server-call';
import { errorMessage, fieldSentences } from '../problem-words';
import type { CreatedApiKey } from '../trpc-types';
import { buttonStyles } from '../ui/modal';
import { useHydrated } from '../ui/use-hydrated';
import { offers } from '../offers';

/** Creates a key of the acting org (docs/product.md §2 "manage the org's API keys"). */
const createApiKey = (client: ConsoleClient, input: { name: string }) => client.apiKeys.create.mutate(input);

/**
 * Creates an API key of the acting org (docs/product.md §6): a name, then the new key goes to
 * `onCreated`, which shows its secret once. The server's problem `detail` for the name shows
 * next to the field; any other failure under the form. The tRPC client loads at the first
 * submit (useServerCall), not with the page.
 */
export function CreateApiKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const [name, setName] = useState('');
  const create = useServerCall(createApiKey);
  const hydrated = useHydrated();
  const errorId = useId();
  const nameErrors = fieldSentences(create.error, 'name');
  // A problem naming no field of this form (say, the rate limit) shows under it.
  const otherError = create.error !== null && nameErrors.length === 0 ? errorMessage(create.error) : null;

  return (
    <form
      aria-label="Create an API key"
      className="flex flex-wrap items-start gap-3 rounded-xl border border-line bg-surface p-4 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        create
          .run({ name })
          .then((key) => {
            setName('');
            onCreated(key);
          })
          .catch(() => {}); // shown from create.error
      }}
    >
      <div>
        <label className="text-sm font-medium text-ink-2">
          Name
          <input
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            placeholder="e.g. ci-deploy"
            aria-invalid={nameErrors.length > 0}
            aria-describedby={nameErrors.length > 0 ? errorId : undefined}
            className="mt-1 block w-72 rounded-md border border-line-strong px-3 py-1.5 text-sm font-normal aria-[invalid=true]:border-danger"
          />
        </label>
        {nameErrors.length > 0 && (
          <p id={errorId} role="alert" className="mt-1 text-xs text-danger">
            {/* The problem's own words for this field (its errors[] entry), e.g. "must not be empty". */}
            {nameErrors.join(' ')}
          </p>
        )}
      </div>
      <button type="submit" disabled={!hydrated || create.pending} className={`mt-6 ${buttonStyles.primary}`} {...offers('api-keys.create')}>
        {create.pending ? 'Creating…' : 'Create API key'}
      </button>
      {otherError && (
        <p role="alert" className="basis-full rounded-md bg-danger-soft p-2 text-sm text-danger-ink">
          {otherError}
        </p>
      )}
    </form>
  );
}
