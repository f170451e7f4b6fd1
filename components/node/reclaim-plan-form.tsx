'use client';

import { useState, type FormEvent } from 'react';
import type { ConsoleClient } from '../live/trpc-client';
import { useServerCall } from '../live/use-server-call';
import { offers } from '../offers';
import { errorMessage } from '../problem-words';
import { useHydrated } from '../ui/use-hydrated';

type Plan = Awaited<ReturnType<ConsoleClient['reservations']['reclaimPlan']['query']>>;

const planReclaim = (client: ConsoleClient, input: { nodeId: string; reservationId: string; count: number }) => client.reservations.reclaimPlan.query(input);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * "I need N GPUs back" (docs/product.md §5.5, §6): asks for the reclaim plan of one reservation,
 * selects the plan's units on the grid and says why each unit and VM is in it. The person may
 * change the selection before Reclaim…, whose preview follows the selection as always, and
 * confirms with `expectedTerminate` as always. Not inside the Reclaim… dialog: a modal would keep
 * the grid from being adjusted. The tRPC client loads at the first plan, not with the page.
 * @param reservations the reservations on the node that offer reclaim; the one planned for is
 *   the selection's, or the only one.
 */
export function ReclaimPlanForm(props: {
  nodeId: string;
  reservations: readonly string[];
  selectionReservation: string | null;
  selectedIds: readonly string[];
  onPlan: (unitIds: string[]) => void;
}) {
  const { nodeId, reservations, selectionReservation, selectedIds, onPlan } = props;
  const call = useServerCall(planReclaim);
  const hydrated = useHydrated();
  const [shown, setShown] = useState<{ plan: Plan; reservationId: string; count: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const reservationId = selectionReservation ?? (reservations.length === 1 ? reservations[0]! : null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    // Read from the form, not from state: a number typed before the page hydrated is kept (an
    // uncontrolled input), where a controlled one would be reset to its initial value.
    const n = Number(new FormData(e.currentTarget as HTMLFormElement).get('count'));
    if (!Number.isInteger(n) || n < 1 || n > 1024) return setProblem('Enter a whole number of GPUs from 1 to 1024.');
    if (!reservationId) return setProblem('Several reservations on this node can be reclaimed: select one of its units first, to say which.');
    try {
      const plan = await call.run({ nodeId, reservationId, count: n });
      setShown({ plan, reservationId, count: n });
      onPlan(plan.unitIds);
    } catch (err) {
      setShown(null);
      setProblem(errorMessage(err));
    }
  }

  const adjusted = shown && (shown.plan.unitIds.length !== selectedIds.length || shown.plan.unitIds.some((u) => !selectedIds.includes(u)));
  return (
    <div className="w-full" data-testid="reclaim-plan-form">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <label className="text-sm text-ink-2">
          GPUs back
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={1024}
            name="count"
            defaultValue="1"
            className="ml-2 w-20 rounded-md border border-line-strong px-2 py-1 text-sm"
          />
        </label>
        <button
          type="submit"
          disabled={!hydrated || call.pending}
          className="rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm hover:bg-surface-2 disabled:opacity-50"
          {...offers('node.reclaim-plan')}
        >
          {call.pending ? 'Planning…' : 'Plan the fewest evictions'}
        </button>
      </form>
      {problem && (
        <p role="alert" className="mt-2 text-sm text-danger">
          {problem}
        </p>
      )}
      {shown && (
        <section data-testid="reclaim-plan" className="mt-3 rounded-md border border-line bg-surface-2 p-3 text-sm" aria-live="polite">
          <p className="font-medium text-ink">
            {`${plural(shown.count, 'GPU')} back from ${shown.reservationId}: reclaim ${shown.plan.unitIds.join(', ')}, `}
            {shown.plan.wouldTerminate.length === 0 ? 'evicting nobody.' : `terminating ${shown.plan.wouldTerminate.join(', ')}.`}
          </p>
          <ul className="mt-2 space-y-1 text-ink-2">
            {shown.plan.reasons.map((r) => (
              <li key={`${r.kind}:${r.id}`} data-reason-for={r.id}>
                <span className="font-mono">{r.id}</span>: {r.text}
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-ink-4">
            {adjusted
              ? 'You changed the selection: Reclaim… previews and reclaims the units selected now.'
              : 'The plan’s units are selected on the grid. Change the selection if you like, then Reclaim… to preview and confirm.'}
          </p>
        </section>
      )}
    </div>
  );
}
