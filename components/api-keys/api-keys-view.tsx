'use client';

import { usePathname, useRouter } from 'next/navigation';
import { Suspense, useState } from 'react';
import { lazyWithTrpc } from '../live/lazy-with-trpc';
import { StaleBanner } from '../live/stale-banner';
import { useLastGood } from '../live/use-last-good';
import type { ApiKeyView, CreatedApiKey } from '../trpc-types';
import { DataTable, type Column } from '../ui/data-table';
import type { PageResult } from '../ui/paged-table';
import { UrlPager } from '../ui/url-pager';
import { CreateApiKeyForm, scopeChoices } from './create-api-key-form';
import { NewKeyDialog } from './new-key-dialog';
import { offers } from '../offers';
import { Time } from '../time-zone';

// Loaded on demand with the data layer it calls the server through (see node/node-view.tsx).
const RevokeKeyDialog = lazyWithTrpc(() => import('./revoke-key-dialog').then((m) => m.RevokeKeyDialog));

/** A time as "3 minutes ago", the exact time on hover. */
function When({ iso }: { iso: string }) {
  return <Time iso={iso} relative />;
}

/**
 * Who created a key (docs/product.md §5 Objects `createdBy`): a person by name, one of the org's
 * keys by name and prefix — so a key minted by a leaked key stands out —, or a platform job.
 */
function CreatedBy({ by }: { by: ApiKeyView['createdBy'] }) {
  if (!by)
    return (
      <span className="text-ink-4" title="Created before the console recorded who creates keys.">
        not recorded
      </span>
    );
  if (by.kind === 'user') return <span title={by.userId}>{by.name ?? by.userId}</span>;
  if (by.kind === 'api_key') {
    return (
      <span title={by.id}>
        key {by.name} <span className="font-mono text-xs text-ink-4">{by.prefix}…</span>
      </span>
    );
  }
  return <span className="text-ink-3">platform job {by.job}</span>;
}

function columns(onRevoke: (key: ApiKeyView) => void): readonly Column<ApiKeyView>[] {
  return [
    { key: 'name', header: 'Name', cell: (k) => <span className="font-medium">{k.name}</span> },
    { key: 'prefix', header: 'Key', className: 'py-2 pr-4 font-mono text-xs', cell: (k) => `${k.prefix}…` },
    {
      key: 'scopes',
      header: 'May',
      className: 'py-2 pr-4 text-sm',
      cell: (k) => <span title={k.scopes.join(' ')}>{k.scopes.map((s) => scopeChoices.find((c) => c.scope === s)?.label ?? s).join(', ')}</span>,
    },
    { key: 'created', header: 'Created', className: 'py-2 pr-4 text-ink-3', cell: (k) => <When iso={k.createdAt} /> },
    { key: 'createdBy', header: 'Created by', className: 'py-2 pr-4 text-sm', cell: (k) => <CreatedBy by={k.createdBy} /> },
    {
      key: 'used',
      header: 'Last used',
      className: 'py-2 pr-4 text-ink-3',
      cell: (k) => (k.lastUsedAt ? <When iso={k.lastUsedAt} /> : <span className="text-ink-4">never</span>),
    },
    {
      key: 'action',
      header: <span className="sr-only">Status</span>,
      className: 'py-2 text-right',
      cell: (k) =>
        k.revokedAt ? (
          <Time iso={k.revokedAt} className="rounded bg-surface-3 px-2 py-0.5 text-xs text-ink-3">
            revoked
          </Time>
        ) : (
          <button
            type="button"
            onClick={() => onRevoke(k)}
            aria-label={`Revoke ${k.name}`}
            {...offers('api-keys.revoke')}
            className="rounded-md border border-danger-line px-3 py-1 text-sm text-danger hover:bg-danger-soft"
          >
            Revoke
          </button>
        ),
    },
  ];
}

/**
 * The API keys page (docs/product.md §6): the acting org's keys — name, prefix, created, who
 * created it, last used — with create (the secret shown once) and revoke (after a confirmation).
 */
export function ApiKeysView(props: { keys: PageResult<ApiKeyView>; cursor: string | undefined }) {
  const { cursor } = props;
  // A failed refresh keeps this page, with the error above it.
  const keys = useLastGood(props.keys, cursor ?? '');
  const router = useRouter();
  const pathname = usePathname();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold" {...offers('api-keys.page')}>
          API keys
        </h1>
        <p className="text-sm text-ink-3">
          Keys of your org for the REST API under /v1. Each acts as the org; its secret is shown once, when it is created. An org has at most 100 active keys.
        </p>
      </div>
      <CreateApiKeyForm
        onCreated={(key) => {
          setCreated(key);
          // The first page, read again: the new key is on it.
          if (cursor) router.push(pathname);
          else router.refresh();
        }}
      />
      {keys.error && keys.data && <StaleBanner error={keys.error} what="the keys" />}
      {keys.error && !keys.data && <p className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">{keys.error}</p>}
      <div className="overflow-x-auto rounded-xl border border-line bg-surface px-4 shadow-sm">
        <DataTable
          columns={columns(setRevoking)}
          rows={keys.data?.items ?? []}
          rowKey={(k) => k.id}
          rowAttr="api-key-id"
          testId="api-key-table"
          empty={keys.data ? 'No API keys yet.' : 'Nothing to show.'}
        />
      </div>
      <UrlPager cursor={cursor} nextCursor={keys.data?.nextCursor} />
      {created && <NewKeyDialog apiKey={created} onClose={() => setCreated(null)} />}
      <Suspense fallback={null}>{revoking && <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />}</Suspense>
    </div>
  );
}
