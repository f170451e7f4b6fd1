import { getDb } from '@/db/client';
import NextAuth, { CredentialsSignin } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { clientAddress } from './client-address';
import { redirectWithinSite } from './return-path';
import { cookies } from 'next/headers';
import { buildCookieOptions } from './cookie-options';
import { KNOWN_DEVICE_COOKIE, KNOWN_DEVICE_MAX_AGE_SECONDS, knownDeviceCookieValue, knownDeviceSecret, parseKnownDeviceCookie } from './known-device-cookie';
import { SignInInput, signInWithPassword, type SignInOutcome } from './sign-in';
import { getSiteUrl } from './site';
import { revokeSession, SESSION_MAX_AGE_SECONDS, startSession } from './sessions';

declare module 'next-auth' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface Session {
    /** The `sessions` row the cookie names (server/auth/sessions.ts). */
    sessionId?: string;
  }
}

/**
 * A sign-in refused before its password was checked (server/auth/sign-in.ts). Auth.js puts
 * `code` in the sign-in page's URL (`?code=locked_out_15m`), which the page turns into a sentence:
 * `locked_out_<N>m` (the throttle: try again in N minutes), `paused_<N>s` (the site-wide failure
 * budget is spent for browsers no account knows) or `busy_<N>s` (every password-check slot of
 * this instance is taken). None says whether the account exists (unknown emails lock out alike).
 * Auth.js's own endpoint answers the last two 429 (server/auth/http.ts).
 */
export class SignInRefused extends CredentialsSignin {
  constructor(code: string) {
    super();
    this.code = code;
  }
}

/** The code of a refusal (see SignInRefused), or null for an outcome that is not one. */
function refusalCode(result: SignInOutcome): string | null {
  if (result.outcome === 'locked_out') return `locked_out_${result.retryAfterMinutes}m`;
  if (result.outcome === 'paused' || result.outcome === 'busy') return `${result.outcome}_${result.retryAfterSeconds}s`;
  return null;
}

/**
 * Auth.js (next-auth v5) for the console: email + password for users in the database,
 * JWT sessions (Credentials requires them). The JWT carries the user id and the id of a
 * `sessions` row, which every request checks is still live (server/auth/sessions.ts),
 * so that signing out ends the session rather than just forgetting the cookie. The acting org
 * is resolved per request against memberships.
 */
export const { handlers, auth, signIn, signOut } = NextAuth({
  trustHost: true,
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: '/sign-in' },
  // A wrong password is an answer, not a server error: keep it out of the error log.
  logger: {
    error(error) {
      if (error instanceof CredentialsSignin || error.name === 'CredentialsSignin') return;
      console.error('[auth]', error);
    },
  },
  providers: [
    Credentials({
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      async authorize(raw, request) {
        const parsed = SignInInput.safeParse(raw);
        if (!parsed.success) throw new CredentialsSignin();
        const jar = await cookies();
        const secret = knownDeviceSecret();
        const deviceIds = secret ? parseKnownDeviceCookie(jar.get(KNOWN_DEVICE_COOKIE)?.value, secret) : [];
        const result = await signInWithPassword({ db: getDb(), input: { ...parsed.data, address: clientAddress(request.headers), deviceIds } });
        const refused = refusalCode(result);
        if (refused) throw new SignInRefused(refused);
        if (result.outcome !== 'signed_in') throw new CredentialsSignin();
        // The browser is known to this account from now on (docs/product.md §9.3 "Known devices").
        if (secret)
          jar.set(
            KNOWN_DEVICE_COOKIE,
            knownDeviceCookieValue(result.deviceId, deviceIds, secret),
            buildCookieOptions(await getSiteUrl(), KNOWN_DEVICE_MAX_AGE_SECONDS),
          );
        return result.user;
      },
    }),
  ],
  callbacks: {
    // Auth.js's default lets `/\host` through (it only checks for a leading `/`).
    redirect: redirectWithinSite,
    async jwt({ token, user }) {
      // `user` is present only at sign-in: open the session the cookie will name.
      if (user?.id) {
        token.sub = user.id;
        token.sid = await startSession(getDb(), user.id);
      }
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      if (typeof token.sid === 'string') session.sessionId = token.sid;
      return session;
    },
  },
  events: {
    // Auth.js's own endpoint (POST /api/auth/signout) ends the session too; the console's
    // sign-out action has already revoked it (endConsoleSession), so this is then a no-op.
    async signOut(message) {
      const sid = 'token' in message ? message.token?.sid : undefined;
      if (typeof sid === 'string') await revokeSession(getDb(), sid);
    },
  },
});
