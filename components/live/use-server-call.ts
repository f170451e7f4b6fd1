'use client';

import { useCallback, useState } from 'react';
import { useActingOrgId } from '../acting-org';
import { problemOf } from '../problem';
import type { ConsoleClient } from './trpc-client';

/**
 * One call to the server from a form rendered with the page (not a lazy dialog): the tRPC
 * client loads at the first call, not with the page. Tracks whether it is in flight and its
 * last error, as a form shows them; an `acting_org_changed` refusal (the org was switched in
 * another tab) reloads the page, as TrpcProvider does.
 * @returns `run` (resolves with the answer, rejects with the error), `pending`, `error`, `reset`.
 */
export function useServerCall<I, O>(call: (client: ConsoleClient, input: I) => Promise<O>) {
  const actingOrgId = useActingOrgId();
  const [state, setState] = useState<{ pending: boolean; error: unknown }>({ pending: false, error: null });
  const run = useCallback(
    async (input: I): Promise<O> => {
      setState({ pending: true, error: null });
      try {
        const { consoleClient } = await import('./trpc-client');
        const out = await call(consoleClient(actingOrgId), input);
        setState({ pending: false, error: null });
        return out;
      } catch (error) {
        if (problemOf(error)?.code === 'acting_org_changed') window.location.reload();
        setState({ pending: false, error });
        throw error;
      }
    },
    [call, actingOrgId],
  );
  const reset = useCallback(() => setState({ pending: false, error: null }), []);
  return { run, pending: state.pending, error: state.error, reset };
}
