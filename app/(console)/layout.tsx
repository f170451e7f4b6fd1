import { signOutAction, signOutEverywhereAction, switchOrgAction } from '@/app/actions';
import { OrgSwitcher } from '@/components/org-switcher';
import { ActingOrgProvider } from '@/components/acting-org';
import { AutoRefresh } from '@/components/live/auto-refresh';
import { ConnectionStatus } from '@/components/live/connection-status';
import { LastUpdated } from '@/components/live/last-updated';
import { OutcomeHost } from '@/components/live/outcome-host';
import { getConsoleSession } from '@/server/auth/console-principal';
import { getSafeReturnPath } from '@/server/auth/site';
import { isOperator } from '@/server/context';
import { PATHNAME_HEADER } from '@/server/http/page-headers';
import { headers } from 'next/headers';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { AccountNav } from './account-nav';
import { readTimeZones } from './time-zone';
import { setTimeZoneAction } from './time-zone-action';
import { TimeZoneProvider } from '@/components/time-zone';
import { TimeZoneSwitch } from '@/components/time-zone-switch';
import { ThemeSwitch } from '@/components/theme-switch';
import { readTheme } from '@/app/theme';
import { setThemeAction } from '@/app/theme-action';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const session = await getConsoleSession();
  if (!session) {
    const asked = await getSafeReturnPath((await headers()).get(PATHNAME_HEADER));
    redirect(asked === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(asked)}`);
  }
  const acting = session.orgs.find((o) => o.id === session.principal.orgId)!;
  // Every time on the page is in the zone the `tz` cookie names, UTC by default (issue 23).
  const zones = await readTimeZones();
  return (
    <ActingOrgProvider orgId={session.principal.orgId} orgName={acting.name}>
      {/* The header's unread count stays current on every page (the bell is server-rendered). */}
      <AutoRefresh ms={30_000} />
      {/* An open page survives the server going away: "Reconnecting…", and back by itself. */}
      <ConnectionStatus />
      {/* The first stop of Tab on every page: past the header, straight to what the page is for. */}
      <a
        href="#main"
        className="sr-only rounded-md bg-accent px-3 py-2 text-sm font-semibold text-on-accent focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>
      <header className="border-b border-line bg-surface">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
          <Link href="/" className="font-semibold">
            GPU Reservations
          </Link>
          <nav className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink-3">
            <Link href="/" className="hover:text-ink">
              Fleet
            </Link>
            <Link href="/calendar" className="hover:text-ink">
              Calendar
            </Link>
            {/* Read pages: audit trail, VMs, the acting org's capacity (kept as one block). */}
            <Link href="/capacity" className="hover:text-ink">
              My capacity
            </Link>
            <Link href="/vms" className="hover:text-ink">
              VMs
            </Link>
            <Link href="/audit" className="hover:text-ink">
              Audit
            </Link>
            <Link href="/utilisation" className="hover:text-ink">
              Utilisation
            </Link>
            {/* end read pages */}
            {isOperator(session.principal) && session.grants.includes('members:manage') && (
              <Link href="/sign-ins" className="hover:text-ink">
                Locked sign-ins
              </Link>
            )}
            {/* The API's reference and changelog: public pages, outside the console (no sign-in). */}
            {/* A full load, not a client navigation: the reference's styles carry the CSP nonce of the document they load with (app/docs/api/page.tsx). */}
            <a href="/docs/api" className="hover:text-ink">
              API docs
            </a>
          </nav>
          {/* The org's own: API keys and the notifications bell (kept apart from the nav above). */}
          <AccountNav admin={session.grants.includes('keys:manage')} />
          <div className="ml-auto flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
            <span data-testid="acting-org" className="rounded-md bg-surface-3 px-2 py-1">
              Acting as <strong>{acting.name}</strong> <span className="font-mono text-xs text-ink-4">{acting.id}</span>
              {/* The role beside the org it is in (docs/product.md §2 Roles, §6). */}
              <span data-testid="acting-role" className="ml-2 rounded bg-surface-2 px-1.5 py-0.5 text-xs font-medium text-ink-2">
                {acting.role}
              </span>
              {isOperator(session.principal) && (
                <span className="ml-2 rounded bg-accent-soft-2 px-1.5 py-0.5 text-xs font-medium text-accent-ink-strong">operator</span>
              )}
            </span>
            {session.orgs.length > 1 && <OrgSwitcher orgs={session.orgs} actingOrgId={acting.id} action={switchOrgAction} />}
            <LastUpdated />
            <TimeZoneSwitch zone={zones.zone} action={setTimeZoneAction} />
            <ThemeSwitch theme={await readTheme()} action={setThemeAction} />
            <span className="text-ink-3 [overflow-wrap:anywhere]">{session.user.email}</span>
            <form action={signOutAction}>
              <button type="submit" className="rounded-md border border-line-strong px-3 py-1 hover:bg-surface-2">
                Sign out
              </button>
            </form>
            <form action={signOutEverywhereAction}>
              <button
                type="submit"
                title="End this account's sessions in every browser"
                className="rounded-md border border-line-strong px-3 py-1 hover:bg-surface-2"
              >
                Sign out everywhere
              </button>
            </form>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 focus:outline-none sm:px-6">
        {acting.role === 'viewer' && (
          // Why nothing is offered: the viewer sees every page, and takes no action (docs/product.md §6).
          <p data-testid="role-hint" role="note" className="mb-4 rounded-md border border-line bg-surface-2 px-3 py-2 text-sm text-ink-2">
            Your role in {acting.name} is <strong>viewer</strong>: you see what {acting.name} sees, and take no action. An admin of {acting.name} can change
            your role.
          </p>
        )}
        <TimeZoneProvider zones={zones}>{children}</TimeZoneProvider>
      </main>
      {/* What a finished action changed (components/live/outcome.ts), on every page. */}
      <OutcomeHost />
    </ActingOrgProvider>
  );
}
