'use client';

import { lazy, type ComponentType } from 'react';

/**
 * `React.lazy` for a component that calls the server through tRPC (a dialog): its module and
 * the data layer (TanStack Query, the tRPC client, superjson) load when it first renders, never
 * with the page. Pages that render from server data (the node page, the fleet) have no
 * provider of their own, so the loaded component brings one (`WithTrpc`).
 */
export function lazyWithTrpc<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => {
    const [{ WithTrpc }, Component] = await Promise.all([import('./with-trpc'), load()]);
    function Loaded(props: P) {
      return (
        <WithTrpc>
          <Component {...props} />
        </WithTrpc>
      );
    }
    return { default: Loaded };
  });
}
