import { offers } from '../offers';
import type { Fetched, RouterOutputs } from '../trpc-types';
import { UtilisationSummary, WindowSwitch, type UtilisationWindowName } from './utilisation-panel';

/**
 * The reservation page's "Utilisation" (docs/product.md §5.8 Utilisation): how the reservation
 * used its units over the last 7 or 30 days (the URL's `window`). A server component the page
 * renders into the reservation view, like the scheduled reclaims: only the chart is client code,
 * loaded on demand.
 */
export function ReservationUtilisation(props: {
  utilisation: Fetched<RouterOutputs['utilisation']['reservation']>;
  window: UtilisationWindowName;
  hrefFor: (w: UtilisationWindowName) => string;
}) {
  const { utilisation, window, hrefFor } = props;
  return (
    <section className="rounded-xl border border-line bg-surface p-5 shadow-sm" aria-labelledby="utilisation-title" {...offers('reservation.utilisation')}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="utilisation-title" className="font-semibold">
          Utilisation
        </h2>
        <WindowSwitch current={window} hrefFor={hrefFor} />
      </div>
      {!utilisation.data ? (
        <p className="text-sm text-danger">{utilisation.error}</p>
      ) : (
        <UtilisationSummary
          summary={utilisation.data}
          testId="reservation-utilisation"
          name="The reservation’s utilisation"
          caption="GPU-hours (one unit for one hour) this reservation held, and what they did."
        />
      )}
    </section>
  );
}
