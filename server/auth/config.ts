import { getDb } from '@/db/client';
import NextAuth, { CredentialsSignin } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { clientAddress } from './client-address';
import { redirectWithinSite } from './return-path';
import { SignInInput, signInWithPassword } from './sign-in';
import { revokeSession, SESSION_MAX_AGE_SECONDS, startSession } from './sessions';

declare module 'next-auth' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface Session {
    /** The `sessions` row the cookie names (server/auth/sessions.ts). */
    sessionId?: string;
  }
}

/**
 * A sign-in refused by the throttle (server/auth/sign-in.ts). Auth.js puts `code` in the sign-in
 * page's URL (`?code=locked_out_15m`), which shows "try again in 15 minutes"; it says nothing
 * of whether the account exists (unknown emails lock out alike).
 */
export class SignInLockedOut extends CredentialsSignin {
  constructor(retryAfterMinutes: number) {
    super();
    this.code = `locked_out_${retryAfterMinutes}m`;
  }
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
        const result = await signInWithPassword({ db: getDb(), input: { ...parsed.data, address: clientAddress(request.headers) } });
        if (result.outcome === 'locked_out') throw new SignInLockedOut(result.retryAfterMinutes);
        if (result.outcome === 'invalid') throw new CredentialsSignin();
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
