import { useSyncExternalStore } from 'react';

const subscribeNever = () => () => {};

/**
 * Whether this component runs hydrated in the browser: false in the server's HTML and during
 * hydration, true after. A submit button that needs JavaScript is disabled until then, so a
 * click on a page still hydrating is not a native form submission that reloads the page and
 * drops what was asked (docs/product.md §6: the console never misleads).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
