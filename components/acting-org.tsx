'use client';

import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

/** The org a page loaded as, and — once the session acts as another — which one (its name when known). */
type ActingOrg = {
  orgId: string;
  orgName: string;
  switchedTo: { orgId?: string; orgName?: string } | null;
  /** The server refused a call as this org (409 acting_org_changed): reload, or keep an open dialog. */
  noteSwitched: () => void;
};

const ActingOrgContext = createContext<ActingOrg | null>(null);

/** An open dialog holds what someone typed; reloading would drop it unsaid. */
const dialogOpen = () => document.querySelector('dialog[open]') !== null;

/**
 * The org this page acts as, for whatever loads later and calls the server (a dialog's tRPC
 * client and a form's call name it on every call; server/trpc/shared.ts ACTING_ORG_HEADER, which
 * the server refuses with 409 acting_org_changed once the session acts as another). Pinned to
 * the org the page loaded as: when a render says another (the org was switched — here, or in
 * another tab and picked up by a refresh), the page reloads, so no form, selection or open
 * dialog meant for one org is ever sent as the other. While a dialog is open it does not reload
 * at once (docs/product.md §6): the dialog says what happened, keeps what was typed and sends
 * nothing; the page reloads as the new org when the last dialog closes. Plain React: it costs the
 * first load nothing, where the data layer itself loads on demand.
 */
export function ActingOrgProvider({ orgId, orgName, children }: { orgId: string; orgName: string; children: ReactNode }) {
  const [pinned] = useState({ orgId, orgName });
  const [refused, setRefused] = useState(false);
  const switched = orgId !== pinned.orgId || refused;
  const noteSwitched = useCallback(() => {
    if (dialogOpen()) setRefused(true);
    else window.location.reload();
  }, []);
  useEffect(() => {
    if (!switched) return;
    if (!dialogOpen()) {
      window.location.reload();
      return;
    }
    // `close` does not bubble; a capturing listener on the document hears every dialog's.
    const onClose = () => {
      if (!dialogOpen()) window.location.reload();
    };
    document.addEventListener('close', onClose, true);
    return () => document.removeEventListener('close', onClose, true);
  }, [switched]);
  const value = useMemo<ActingOrg>(
    () => ({
      ...pinned,
      switchedTo: !switched ? null : orgId !== pinned.orgId ? { orgId, orgName } : {},
      noteSwitched,
    }),
    [pinned, switched, orgId, orgName, noteSwitched],
  );
  return <ActingOrgContext.Provider value={value}>{children}</ActingOrgContext.Provider>;
}

function useActingOrg(): ActingOrg {
  const acting = useContext(ActingOrgContext);
  if (acting === null) throw new Error('useActingOrg outside ActingOrgProvider (the console layout)');
  return acting;
}

/** @throws Error outside the console layout (a bug: every console page is inside it). */
export function useActingOrgId(): string {
  return useActingOrg().orgId;
}

/** Whether the session acts as another org than this page (switched in another tab), for a dialog to say so. */
export function useActingOrgSwitch(): Pick<ActingOrg, 'orgName' | 'switchedTo' | 'noteSwitched'> {
  const { orgName, switchedTo, noteSwitched } = useActingOrg();
  return { orgName, switchedTo, noteSwitched };
}
