'use client';

import { switchOrgAction } from '@/app/actions';
import { usePathname } from 'next/navigation';
import { useRef } from 'react';

/** Picks the acting org among the user's orgs; the server remembers it in a cookie. */
export function OrgSwitcher({ orgs, actingOrgId }: { orgs: { id: string; name: string }[]; actingOrgId: string }) {
  const form = useRef<HTMLFormElement>(null);
  const pathname = usePathname();
  return (
    <form ref={form} action={switchOrgAction}>
      <input type="hidden" name="back" value={pathname} />
      <label className="sr-only" htmlFor="org-switcher">
        Switch org
      </label>
      <select id="org-switcher" name="orgId" defaultValue={actingOrgId} onChange={() => form.current?.requestSubmit()} className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm">
        {orgs.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </form>
  );
}
