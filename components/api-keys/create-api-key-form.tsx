'use client';

import { useId, useState } from 'react';
import type { ConsoleClient } from '../live/trpc-client';
import { useServerCall } from '../live/use-server-call';
import { errorMessage, fieldSentences } from '../problem-words';
import type { CreatedApiKey } from '../trpc-types';
import { buttonStyles } from '../ui/modal';
import { useHydrated } from '../ui/use-hydrated';
import { offers } from '../offers';

type Scope = 'read' | 'reservations:write' | 'vms:write' | 'keys:manage';

/** Creates a key of the acting org (docs/product.md §2 "manage the org's API keys"). */
const createApiKey = (client: ConsoleClient, input: { name: string; scopes: Scope[] }) => client.apiKeys.create.mutate(input);

/** The four scopes (docs/product.md §2 Scopes), each in words a person picks by. */
export const scopeChoices: readonly { scope: Scope; label: string; description: string }[] = [
  { scope: 'read', label: 'Read', description: 'See nodes, reservations, VMs, the audit trail, notifications and events.' },
  {
    scope: 'reservations:write',
    label: 'Manage reservations',
    description: 'Create, edit, cancel, release and reclaim (previews and plans too), and schedule reclaims.',
  },
  { scope: 'vms:write', label: 'Run VMs', description: 'Place and terminate VMs, and mark notifications read.' },
  { scope: 'keys:manage', label: 'Manage keys and webhooks', description: 'Create, list and revoke API keys, and manage webhook endpoints.' },
];

/**
 * Creates an API key of the acting org (docs/product.md §6): a name, then the new key goes to
 * `onCreated`, which shows its secret once. The server's problem `detail` for the name shows
 * next to the field; any other failure under the form. The tRPC client loads at the first
 * submit (useServerCall), not with the page.
 */
export function CreateApiKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const [name, setName] = useState('');
  // A new key reads only, unless the admin gives it more: the least it needs.
  const [scopes, setScopes] = useState<Scope[]>(['read']);
  const create = useServerCall(createApiKey);
  const hydrated = useHydrated();
  const errorId = useId();
  const nameErrors = fieldSentences(create.error, 'name');
  const scopeErrors = fieldSentences(create.error, 'scopes');
  // A problem naming no field of this form (say, the rate limit) shows under it.
  const otherError = create.error !== null && nameErrors.length === 0 && scopeErrors.length === 0 ? errorMessage(create.error) : null;
  const scopesId = useId();

  return (
    <form
      aria-label="Create an API key"
      className="flex flex-wrap items-start gap-3 rounded-xl border border-line bg-surface p-4 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        create
          .run({ name, scopes: scopeChoices.map((c) => c.scope).filter((s) => scopes.includes(s)) })
          .then((key) => {
            setName('');
            setScopes(['read']);
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
      <fieldset className="min-w-0 basis-full" aria-describedby={scopeErrors.length > 0 ? scopesId : undefined}>
        <legend className="text-sm font-medium text-ink-2">What the key may do (fixed once it is created)</legend>
        <div className="mt-1 grid gap-2 sm:grid-cols-2">
          {scopeChoices.map((c) => (
            <label key={c.scope} className="flex items-start gap-2 rounded-md border border-line p-2 text-sm">
              <input
                type="checkbox"
                name="scopes"
                value={c.scope}
                checked={scopes.includes(c.scope)}
                onChange={(e) => setScopes((now) => (e.target.checked ? [...now, c.scope] : now.filter((s) => s !== c.scope)))}
                className="mt-0.5"
              />
              <span>
                <span className="font-medium text-ink">{c.label}</span> <span className="font-mono text-xs text-ink-4">{c.scope}</span>
                <span className="block text-ink-3">{c.description}</span>
              </span>
            </label>
          ))}
        </div>
        {scopeErrors.length > 0 && (
          <p id={scopesId} role="alert" className="mt-1 text-xs text-danger">
            {scopes.length === 0 ? 'Pick at least one thing the key may do.' : scopeErrors.join(' ')}
          </p>
        )}
      </fieldset>
      <button type="submit" disabled={!hydrated || create.pending} className={buttonStyles.primary} {...offers('api-keys.create')}>
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
