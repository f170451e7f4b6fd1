import { offers } from '../offers';
import type { Fetched, RouterOutputs } from '../trpc-types';
import { UtilisationSummary, WindowSwitch, type UtilisationWindowName } from './utilisation-panel';

type Rollup = RouterOutputs['utilisation']['rollup'];
type Relation = Rollup['relations'][number]['relation'];

/** Each relation in words (docs/product.md §5.8 Utilisation). */
const relationWords: Record<Relation, { title: string; caption: string }> = {
  owner: { title: 'On the nodes you own', caption: 'GPU-hours of every reservation on the acting org’s nodes.' },
  manager: { title: 'Reservations you manage', caption: 'GPU-hours of the reservations that name the acting org as a managing org.' },
  audience: { title: 'Reservations you may use', caption: 'GPU-hours of the reservations whose audience holds the acting org.' },
  fleet: { title: 'The whole fleet', caption: 'GPU-hours of every reservation on every node (the platform operator’s view).' },
};

/**
 * The Utilisation page (docs/product.md §5.8 Utilisation): the acting org's roll-up, one section
 * per relation it has, over the last 7 or 30 days (the URL's `window`). A server component:
 * only the charts are client code, loaded on demand.
 */
export function UtilisationRollup({ rollup, window }: { rollup: Fetched<Rollup>; window: UtilisationWindowName }) {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold" {...offers('utilisation.page')}>
          Utilisation
        </h1>
        <WindowSwitch current={window} hrefFor={(w) => (w === '7d' ? '/utilisation' : `/utilisation?window=${w}`)} />
      </div>
      <p className="max-w-3xl text-sm text-ink-3">
        How the reservations the acting org stands to used their units: GPU-hours held, idle while held, released to the spot market and used by spot VMs or by
        the audience’s own VMs, and the VMs reclaims evicted.
      </p>
      {!rollup.data ? (
        <p role="alert" className="text-sm text-danger">
          {rollup.error}
        </p>
      ) : rollup.data.relations.length === 0 ? (
        <p className="rounded-xl border border-line bg-surface p-5 text-sm text-ink-3" data-testid="utilisation-none">
          The acting org owns no node and no reservation names it, so there is nothing to sum.
        </p>
      ) : (
        rollup.data.relations.map((r) => (
          <section key={r.relation} className="rounded-xl border border-line bg-surface p-5 shadow-sm" aria-labelledby={`utilisation-${r.relation}-title`}>
            <h2 id={`utilisation-${r.relation}-title`} className="mb-3 font-semibold">
              {relationWords[r.relation].title}
            </h2>
            <UtilisationSummary
              summary={{ ...r, window: rollup.data!.window }}
              testId={`utilisation-${r.relation}`}
              name={relationWords[r.relation].title}
              caption={relationWords[r.relation].caption}
            />
          </section>
        ))
      )}
    </div>
  );
}
