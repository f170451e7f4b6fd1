'use client';

import { useId, useState } from 'react';
import type { ConsoleClient } from '../live/trpc-client';
import { useServerCall } from '../live/use-server-call';
import { offers } from '../offers';
import { errorMessage, fieldSentences } from '../problem-words';
import type { RouterInputs, WebhookWithSecret } from '../trpc-types';
import { buttonStyles } from '../ui/modal';
import { useHydrated } from '../ui/use-hydrated';
import { EVENT_TYPES } from './event-types';

type CreateInput = RouterInputs['webhooks']['create'];
const createWebhook = (client: ConsoleClient, input: CreateInput) => client.webhooks.create.mutate(input);

/**
 * Adds a webhook endpoint of the acting org (docs/product.md §5.7): its https URL, the event
 * types it takes (none ticked: all), what it is for; the new endpoint goes to `onCreated`, which
 * shows its signing secret once. Problems show next to the field they name. The tRPC client loads
 * at the first submit (useServerCall), not with the page.
 */
export function CreateWebhookForm({ onCreated }: { onCreated: (hook: WebhookWithSecret) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const create = useServerCall(createWebhook);
  const hydrated = useHydrated();
  const urlErrorId = useId();
  const urlErrors = fieldSentences(create.error, 'url');
  const otherError = create.error !== null && urlErrors.length === 0 ? errorMessage(create.error) : null;
  const toggle = (t: string) => setTypes((now) => (now.includes(t) ? now.filter((x) => x !== t) : [...now, t]));

  return (
    <form
      aria-label="Add a webhook endpoint"
      className="space-y-3 rounded-xl border border-line bg-surface p-4 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        create
          .run({ url, types: types as CreateInput['types'], ...(description.trim() ? { description } : {}) })
          .then((hook) => {
            setUrl('');
            setDescription('');
            setTypes([]);
            onCreated(hook);
          })
          .catch(() => {}); // shown from create.error
      }}
    >
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1 basis-72">
          <label className="text-sm font-medium text-ink-2">
            URL
            <input
              name="url"
              type="url"
              required
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              maxLength={2000}
              placeholder="https://hooks.example.com/gpu"
              aria-invalid={urlErrors.length > 0}
              aria-describedby={urlErrors.length > 0 ? urlErrorId : undefined}
              className="mt-1 block w-full rounded-md border border-line-strong px-3 py-1.5 text-sm font-normal aria-[invalid=true]:border-danger"
            />
          </label>
          {urlErrors.length > 0 && (
            <p id={urlErrorId} role="alert" className="mt-1 text-xs text-danger">
              {urlErrors.join(' ')}
            </p>
          )}
        </div>
        <label className="basis-56 text-sm font-medium text-ink-2">
          What it is for <span className="font-normal text-ink-4">(optional)</span>
          <input
            name="description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            maxLength={200}
            placeholder="e.g. checkpoint on reclaim"
            className="mt-1 block w-full rounded-md border border-line-strong px-3 py-1.5 text-sm font-normal"
          />
        </label>
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-ink-2">
          Events <span className="font-normal text-ink-4">({types.length === 0 ? 'none ticked: every type' : `${types.length} ticked`})</span>
        </legend>
        <div className="mt-1 grid max-h-40 grid-cols-1 gap-x-4 overflow-y-auto rounded-md border border-line p-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
          {EVENT_TYPES.map((t) => (
            <label key={t} className="flex items-center gap-2 font-mono text-xs">
              <input type="checkbox" checked={types.includes(t)} onChange={() => toggle(t)} />
              {t}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={!hydrated || create.pending} className={buttonStyles.primary} {...offers('webhooks.create')}>
        {create.pending ? 'Adding…' : 'Add endpoint'}
      </button>
      {otherError && (
        <p role="alert" className="rounded-md bg-danger-soft p-2 text-sm text-danger-ink">
          {otherError}
        </p>
      )}
    </form>
  );
}
