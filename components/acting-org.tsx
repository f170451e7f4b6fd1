'use client';

import { createContext, useContext, type ReactNode } from 'react';

const ActingOrgContext = createContext<string | null>(null);

/**
 * The org this page acts as, for whatever loads later and calls the server (a dialog's tRPC
 * client names it on every call; server/trpc/shared.ts ACTING_ORG_HEADER). Plain React: it
 * costs the first load nothing, where the data layer itself loads on demand.
 */
export function ActingOrgProvider({ orgId, children }: { orgId: string; children: ReactNode }) {
  return <ActingOrgContext.Provider value={orgId}>{children}</ActingOrgContext.Provider>;
}

/** @throws Error outside the console layout (a bug: every console page is inside it). */
export function useActingOrgId(): string {
  const orgId = useContext(ActingOrgContext);
  if (orgId === null) throw new Error('useActingOrgId outside ActingOrgProvider (the console layout)');
  return orgId;
}
