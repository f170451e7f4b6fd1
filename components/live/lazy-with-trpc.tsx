'use client';

import { lazy, type ComponentType } from 'react';

/**
 * `React.lazy` for a component that calls the server through tRPC (a dialog): its module and
 * the data layer (TanStack Query, the tRPC client, superjson) load when it first renders, never
 * with the page. No page has a provider of its own (they render from server data), so the
 * loaded component brings one.
 */
export function lazyWithTrpc<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => {
    const [{ TrpcProvider }, Component] = await Promise.all([import('../trpc-provider'), load()]);
    function Loaded(props: P) {
      return (
        <TrpcProvider>
          <Component {...props} />
        </TrpcProvider>
      );
    }
    return { default: Loaded };
  });
}
