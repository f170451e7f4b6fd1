'use client';

import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useState } from 'react';
import { PageRefreshContext, useAutoRefresh } from '../live/auto-refresh';
import { StaleBanner } from '../live/stale-banner';
import type { ConsoleClient } from '../live/trpc-client';
import { useLastGood } from '../live/use-last-good';
import { useServerCall } from '../live/use-server-call';
import { offers } from '../offers';
import { errorMessage } from '../problem-words';
import { Time } from '../time-zone';
import type { Fetched, WebhookAttempt, WebhookView, WebhookWithSecret } from '../trpc-types';
import { DataTable, type Column } from '../ui/data-table';
import { Modal, buttonStyles } from '../ui/modal';
import { SecretDialog } from '../ui/secret-dialog';
import { UrlPager } from '../ui/url-pager';
import { CreateWebhookForm } from './create-webhook-form';

type Page<T> = { items: T[]; nextCursor?: string };

const setEnabled = (client: ConsoleClient, input: { webhookId: string; enabled: boolean }) => client.webhooks.update.mutate(input);
const rotateSecret = (client: ConsoleClient, input: { webhookId: string }) => client.webhooks.rotateSecret.mutate(input);
const deleteWebhook = (client: ConsoleClient, input: { webhookId: string }) => client.webhooks.delete.mutate(input);
const redeliver = (client: ConsoleClient, input: { webhookId: string; eventId: string }) => client.webhooks.redeliver.mutate(input);

/** How delivery stands, in words: on and fine, failing since when (and the next try), or off and why. */
function Status({ hook }: { hook: WebhookView }) {
  if (!hook.enabled) {
    return (
      <span className="rounded bg-surface-3 px-2 py-0.5 text-xs text-ink-3" data-status="disabled">
        {hook.disabledReason === 'failing' ? 'disabled: 24 h of failures' : 'disabled'}
      </span>
    );
  }
  if (hook.failingSince) {
    return (
      <span className="text-xs text-danger-ink" data-status="failing">
        failing since <Time iso={hook.failingSince} relative /> ({hook.attempts} {hook.attempts === 1 ? 'try' : 'tries'})
        {hook.nextAttemptAt && (
          <>
            ; next try <Time iso={hook.nextAttemptAt} relative />
          </>
        )}
      </span>
    );
  }
  return (
    <span className="rounded bg-ok-soft px-2 py-0.5 text-xs text-ok-ink" data-status="enabled">
      delivering
    </span>
  );
}

/**
 * The webhooks page (docs/product.md §5.7, §6): the acting org's endpoints — URL, the event types
 * they take, how delivery stands — with add (the signing secret shown once), enable or disable,
 * rotate the secret (the new one shown once; the old one signs 24 h more), delete (after asking),
 * and an endpoint's delivery log (`?webhook=`) with Redeliver on each attempt.
 */
export function WebhooksView(props: { hooks: Fetched<Page<WebhookView>>; selected?: string; attempts?: Fetched<Page<WebhookAttempt>>; cursor?: string }) {
  const { selected, cursor } = props;
  const hooks = useLastGood(props.hooks, '');
  const attempts = useLastGood(props.attempts ?? {}, `${selected ?? ''}/${cursor ?? ''}`);
  // Attempts land by themselves: the log stays current while it is open.
  const { refresh } = useAutoRefresh(10_000);
  const router = useRouter();
  const pathname = usePathname();
  const [secret, setSecret] = useState<{ hook: WebhookWithSecret; rotated: boolean } | null>(null);
  const [deleting, setDeleting] = useState<WebhookView | null>(null);
  const toggle = useServerCall(setEnabled);
  const rotate = useServerCall(rotateSecret);
  const actionError = toggle.error ?? rotate.error;
  const shown = hooks.data?.items.find((h) => h.id === selected);

  const columns: readonly Column<WebhookView>[] = [
    {
      key: 'url',
      header: 'URL',
      cell: (h) => (
        <div>
          <span className="font-mono text-xs whitespace-nowrap">{h.url}</span>
          {h.description && <div className="text-xs text-ink-3">{h.description}</div>}
        </div>
      ),
    },
    {
      key: 'types',
      header: 'Events',
      className: 'py-2 pr-4 text-xs',
      cell: (h) => (h.types.length === 0 ? <span className="text-ink-3">every type</span> : <span className="font-mono">{h.types.join(', ')}</span>),
    },
    { key: 'status', header: 'Delivery', className: 'py-2 pr-4', cell: (h) => <Status hook={h} /> },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'py-2 text-right',
      cell: (h) => (
        // The actions keep their words whole: on a narrow screen the table scrolls inside its card (§6).
        <div className="flex justify-end gap-2 whitespace-nowrap">
          <Link href={`${pathname}?webhook=${encodeURIComponent(h.id)}`} className={buttonStyles.secondary} {...offers('webhooks.attempts')}>
            Deliveries
          </Link>
          <button
            type="button"
            className={buttonStyles.secondary}
            disabled={toggle.pending}
            onClick={() => void toggle.run({ webhookId: h.id, enabled: !h.enabled }).then(refresh, () => {})}
            aria-label={`${h.enabled ? 'Disable' : 'Enable'} ${h.url}`}
            {...offers('webhooks.update')}
          >
            {h.enabled ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            className={buttonStyles.secondary}
            disabled={rotate.pending}
            onClick={() =>
              void rotate.run({ webhookId: h.id }).then(
                (hook) => setSecret({ hook, rotated: true }),
                () => {},
              )
            }
            aria-label={`Rotate secret of ${h.url}`}
            {...offers('webhooks.rotate-secret')}
          >
            Rotate secret
          </button>
          <button type="button" className={buttonStyles.danger} onClick={() => setDeleting(h)} aria-label={`Delete ${h.url}`} {...offers('webhooks.delete')}>
            Delete…
          </button>
        </div>
      ),
    },
  ];

  return (
    <PageRefreshContext.Provider value={refresh}>
      <div className="space-y-4">
        <div>
          <h1 className="text-2xl font-semibold" {...offers('webhooks.page')}>
            Webhooks
          </h1>
          <p className="text-sm text-ink-3">
            Your org’s events, pushed: each endpoint gets them in order, signed (Standard Webhooks), retried with backoff for 24 h, then disabled. At most 20
            endpoints; https only.
          </p>
        </div>
        <CreateWebhookForm
          onCreated={(hook) => {
            setSecret({ hook, rotated: false });
            router.refresh();
          }}
        />
        {hooks.error && hooks.data && <StaleBanner error={hooks.error} what="the endpoints" />}
        {hooks.error && !hooks.data && <p className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">{hooks.error}</p>}
        {actionError !== null && (
          <p role="alert" className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">
            {errorMessage(actionError)}
          </p>
        )}
        <div className="overflow-x-auto rounded-xl border border-line bg-surface px-4 shadow-sm">
          <DataTable
            columns={columns}
            rows={hooks.data?.items ?? []}
            rowKey={(h) => h.id}
            rowAttr="webhook-id"
            testId="webhook-table"
            empty={hooks.data ? 'No webhook endpoints yet.' : 'Nothing to show.'}
          />
        </div>
        {selected && <DeliveryLog webhookId={selected} url={shown?.url} attempts={attempts} cursor={cursor} onRedelivered={refresh} />}
        {secret && (
          <SecretDialog
            title={secret.rotated ? 'New signing secret' : 'Webhook endpoint added'}
            testId="webhook-secret-dialog"
            secretTestId="webhook-secret"
            secret={secret.hook.secret}
            what="the signing secret"
            onClose={() => setSecret(null)}
          >
            <p>
              Copy the signing secret of <span className="font-mono text-xs [overflow-wrap:anywhere]">{secret.hook.url}</span> now:{' '}
              <strong>it is shown this once</strong>. Verify each delivery’s <code className="font-mono text-xs">webhook-signature</code> with it.
              {secret.rotated && ' The old secret signs beside it for 24 hours, so your receiver can switch without missing a delivery.'}
            </p>
          </SecretDialog>
        )}
        {deleting && <DeleteDialog hook={deleting} onClose={() => setDeleting(null)} onDeleted={() => router.push(pathname)} />}
      </div>
    </PageRefreshContext.Provider>
  );
}

/** Asks before deleting an endpoint: nothing more is sent to it, and its delivery log goes with it. */
function DeleteDialog({ hook, onClose, onDeleted }: { hook: WebhookView; onClose: () => void; onDeleted: () => void }) {
  const remove = useServerCall(deleteWebhook);
  return (
    <Modal
      title="Delete this webhook endpoint?"
      onClose={onClose}
      actions={(close) => (
        <>
          <button type="button" onClick={close} className={buttonStyles.secondary}>
            Cancel
          </button>
          <button
            type="button"
            disabled={remove.pending}
            className={buttonStyles.danger}
            onClick={() =>
              void remove.run({ webhookId: hook.id }).then(
                () => {
                  onClose();
                  onDeleted();
                },
                () => {},
              )
            }
          >
            {remove.pending ? 'Deleting…' : 'Delete endpoint'}
          </button>
        </>
      )}
    >
      <p>
        Nothing more is sent to <span className="font-mono text-xs [overflow-wrap:anywhere]">{hook.url}</span>, and its delivery log is deleted with it.
      </p>
      {remove.error !== null && (
        <p role="alert" className="rounded-md border border-danger-line bg-danger-soft p-3 text-danger-ink">
          {errorMessage(remove.error)}
        </p>
      )}
    </Modal>
  );
}

/** One endpoint's delivery log (docs/product.md §5.7): each attempt, newest first, with Redeliver. */
function DeliveryLog(props: { webhookId: string; url?: string; attempts: Fetched<Page<WebhookAttempt>>; cursor?: string; onRedelivered: () => void }) {
  const again = useServerCall(redeliver);
  const [sent, setSent] = useState<WebhookAttempt | null>(null);
  const columns: readonly Column<WebhookAttempt>[] = [
    { key: 'at', header: 'When', className: 'py-2 pr-4 text-ink-3', cell: (a) => <Time iso={a.at} relative /> },
    {
      key: 'event',
      header: 'Event',
      cell: (a) => (
        <div>
          <span className="font-mono text-xs">{a.eventType}</span>
          <div className="font-mono text-xs text-ink-4">{a.eventId}</div>
        </div>
      ),
    },
    {
      key: 'result',
      header: 'Result',
      className: 'py-2 pr-4 text-xs',
      cell: (a) => (
        <span className={a.error ? 'text-danger-ink' : 'text-ok-ink'}>
          {a.statusCode ? `HTTP ${a.statusCode}` : 'no answer'}
          {a.error && a.error !== `answered ${a.statusCode}` && ` — ${a.error}`}
          {a.manual && <span className="ml-1 text-ink-3">(redelivered)</span>}
        </span>
      ),
    },
    { key: 'latency', header: 'Took', className: 'py-2 pr-4 text-xs text-ink-3', cell: (a) => `${a.latencyMs} ms` },
    {
      key: 'again',
      header: <span className="sr-only">Redeliver</span>,
      className: 'py-2 text-right',
      cell: (a) => (
        <button
          type="button"
          className={buttonStyles.secondary}
          disabled={again.pending}
          aria-label={`Redeliver ${a.eventType} ${a.eventId}`}
          onClick={() =>
            void again.run({ webhookId: props.webhookId, eventId: a.eventId }).then(
              (attempt) => {
                setSent(attempt);
                props.onRedelivered();
              },
              () => {},
            )
          }
          {...offers('webhooks.redeliver')}
        >
          Redeliver
        </button>
      ),
    },
  ];
  return (
    <section aria-labelledby="delivery-log-title" className="space-y-2">
      <h2 id="delivery-log-title" className="text-lg font-semibold">
        Deliveries{props.url && <span className="ml-2 font-mono text-sm font-normal text-ink-3 [overflow-wrap:anywhere]">{props.url}</span>}
      </h2>
      <p role="status" className="text-sm text-ink-3" data-testid="redelivery-status">
        {sent ? `Sent ${sent.eventType} again: ${sent.error ? `failed (${sent.error})` : `HTTP ${sent.statusCode}`}.` : ''}
      </p>
      {again.error !== null && (
        <p role="alert" className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">
          {errorMessage(again.error)}
        </p>
      )}
      {props.attempts.error && <p className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">{props.attempts.error}</p>}
      <div className="overflow-x-auto rounded-xl border border-line bg-surface px-4 shadow-sm">
        <DataTable
          columns={columns}
          rows={props.attempts.data?.items ?? []}
          rowKey={(a) => a.id}
          rowAttr="attempt-id"
          testId="delivery-log"
          empty="No delivery attempted yet: events of its types are sent as they happen."
        />
      </div>
      <UrlPager cursor={props.cursor} nextCursor={props.attempts.data?.nextCursor} />
    </section>
  );
}
