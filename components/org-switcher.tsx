'use client';

import { usePathname } from 'next/navigation';
import { useRef } from 'react';

/**
 * Picks the acting org among the user's orgs; `action` (a server action, passed in by the
 * console layout so that components/ never imports app/) remembers it and returns to `back`.
 */
export function OrgSwitcher({
  orgs,
  actingOrgId,
  action,
}: {
  orgs: { id: string; name: string }[];
  actingOrgId: string;
  action: (formData: FormData) => Promise<void>;
}) {
  const form = useRef<HTMLFormElement>(null);
  const pathname = usePathname();
  return (
    <form ref={form} action={action}>
      <input type="hidden" name="back" value={pathname} />
      <label className="sr-only" htmlFor="org-switcher">
        Switch org
      </label>
      <select
        id="org-switcher"
        name="orgId"
        defaultValue={actingOrgId}
        onChange={() => form.current?.requestSubmit()}
        className="rounded-md border border-line-strong bg-surface px-2 py-1 text-sm"
      >
        {orgs.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </form>
  );
}
