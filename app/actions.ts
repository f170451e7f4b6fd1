'use server';

import { signIn, signOut } from '@/server/auth/config';
import { acceptConsoleInvite, endAllConsoleSessions, endConsoleSession, switchActingOrg } from '@/server/auth/console-principal';
import { PASSWORD_CHECK_TICKET_HEADER, runSignInRequest } from '@/server/auth/password-checks';
import { getSafeReturnPath } from '@/server/auth/site';
import { AuthError, CredentialsSignin } from 'next-auth';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';

/**
 * Sign-in form action: email + password; back to the form with an error on failure, and with
 * the throttle's code (`locked_out_15m`) when it refused the attempt, as Auth.js's own endpoint
 * passes it.
 */
export async function signInAction(formData: FormData): Promise<void> {
  const redirectTo = await getSafeReturnPath(formData.get('next'));
  try {
    // The password-check slot the door leased for this request (server/auth/sign-in-door.ts).
    const ticket = (await headers()).get(PASSWORD_CHECK_TICKET_HEADER);
    await runSignInRequest(ticket, () => signIn('credentials', { email: formData.get('email'), password: formData.get('password'), redirectTo }));
  } catch (e) {
    if (e instanceof AuthError) {
      const code = e instanceof CredentialsSignin && e.code !== 'credentials' ? `&code=${encodeURIComponent(e.code)}` : '';
      redirect(`/sign-in?error=1${code}&next=${encodeURIComponent(redirectTo)}`);
    }
    throw e;
  }
}

/** Sign out: ends this session (every copy of its cookie), then clears the cookie. */
export async function signOutAction(): Promise<void> {
  await endConsoleSession();
  await signOut({ redirectTo: '/sign-in' });
}

/** Sign out everywhere: ends every session of the user, then clears this browser's cookie. */
export async function signOutEverywhereAction(): Promise<void> {
  await endAllConsoleSessions();
  await signOut({ redirectTo: '/sign-in' });
}

/** Org switcher: remembers the acting org (server/auth/console-principal.ts), then back to the page. */
export async function switchOrgAction(formData: FormData): Promise<void> {
  const outcome = await switchActingOrg(String(formData.get('orgId') ?? ''));
  if (outcome === 'signed_out') redirect('/sign-in');
  redirect(await getSafeReturnPath(formData.get('back')));
}

/**
 * Accepts the invitation link the form carries (docs/product.md §2 Members): joined, to the
 * fleet as the org joined; already a member, to the fleet; else back to the link's page saying
 * it does not work; signed out, to sign-in and back.
 */
export async function acceptInviteAction(formData: FormData): Promise<void> {
  const secret = String(formData.get('secret') ?? '');
  const accepted = await acceptConsoleInvite(secret);
  if (accepted.outcome === 'signed_out') redirect(`/sign-in?next=${encodeURIComponent(`/invite/${secret}`)}`);
  if (accepted.outcome === 'invalid') redirect(`/invite/${encodeURIComponent(secret)}?invalid=1`);
  redirect(accepted.outcome === 'joined' ? '/?joined=1' : '/');
}
