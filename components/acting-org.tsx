'use client';

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

const ActingOrgContext = createContext<string | null>(null);

/**
 * The org this page acts as, for whatever loads later and calls the server (a dialog's tRPC
 * client and a form's call name it on every call; server/trpc/shared.ts ACTING_ORG_HEADER, which
 * the server refuses with 409 acting_org_changed once the session acts as another). Pinned to
 * the org the page loaded as: when a render says another (the org was switched — here, or in
 * another tab and picked up by a refresh), the page reloads, so no form, selection or open
 * dialog meant for one org is ever sent as the other. Plain React: it costs the first load
 * nothing, where the data layer itself loads on demand.
 */
export function ActingOrgProvider({ orgId, children }: { orgId: string; children: ReactNode }) {
  const [pinned] = useState(orgId);
  useEffect(() => {
    if (orgId !== pinned) window.location.reload();
  }, [orgId, pinned]);
  return <ActingOrgContext.Provider value={pinned}>{children}</ActingOrgContext.Provider>;
}

/** @throws Error outside the console layout (a bug: every console page is inside it). */
export function useActingOrgId(): string {
  const orgId = useContext(ActingOrgContext);
  if (orgId === null) throw new Error('useActingOrgId outside ActingOrgProvider (the console layout)');
  return orgId;
}
