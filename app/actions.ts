'use server';

import { signIn, signOut } from '@/server/auth/config';
import { ACTING_ORG_COOKIE, getConsoleSession } from '@/server/auth/console-principal';
import { AuthError } from 'next-auth';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';

/** Sign-in form action: email + password; back to the form with an error on failure. */
export async function signInAction(formData: FormData): Promise<void> {
  const next = String(formData.get('next') ?? '/');
  const redirectTo = next.startsWith('/') && !next.startsWith('//') ? next : '/';
  try {
    await signIn('credentials', { email: formData.get('email'), password: formData.get('password'), redirectTo });
  } catch (e) {
    if (e instanceof AuthError) redirect(`/sign-in?error=1&next=${encodeURIComponent(redirectTo)}`);
    throw e;
  }
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: '/sign-in' });
}

/** Org switcher: remembers the acting org, only among the user's own orgs (SPEC §2). */
export async function switchOrgAction(formData: FormData): Promise<void> {
  const orgId = String(formData.get('orgId') ?? '');
  const session = await getConsoleSession();
  if (!session) redirect('/sign-in');
  if (session.orgs.some((o) => o.id === orgId)) {
    (await cookies()).set(ACTING_ORG_COOKIE, orgId, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 365 * 24 * 3600, secure: process.env.NODE_ENV === 'production' && process.env.AUTH_URL?.startsWith('https') === true });
  }
  redirect(String(formData.get('back') ?? '/'));
}
