import { signInAction } from '@/app/actions';
import { readTheme } from '@/app/theme';
import { setThemeAction } from '@/app/theme-action';
import { ThemeSwitch } from '@/components/theme-switch';
import { getConsoleSession } from '@/server/auth/console-principal';
import { getSafeReturnPath } from '@/server/auth/site';
import { redirect } from 'next/navigation';

export const metadata = { title: 'Sign in · GPU Reservations' };

/** What went wrong, in words: the refusal codes of server/auth/config.ts name the time to wait. */
function signInErrorMessage(code: string | undefined): string {
  const refused = /^(locked_out|paused|busy)_(\d{1,6})([ms])$/.exec(code ?? '');
  if (!refused) return 'That email and password do not match an account.';
  const n = Number(refused[2]);
  const wait = `${n} ${refused[3] === 'm' ? 'minute' : 'second'}${n === 1 ? '' : 's'}`;
  if (refused[1] === 'busy') return 'Many sign-ins are being checked right now; try again in a few seconds.';
  if (refused[1] === 'paused')
    return `Sign-in is paused after many failed attempts on this site; try again in ${wait}. Browsers that signed in here before are not affected.`;
  return `Too many failed sign-ins; try again in ${wait}.`;
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string; code?: string; next?: string }> }) {
  const { error, code, next } = await searchParams;
  if (await getConsoleSession()) redirect(await getSafeReturnPath(next));
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6">
      <form action={signInAction} className="w-full max-w-sm space-y-4 rounded-xl border border-line bg-surface p-8 shadow-sm">
        <div>
          <h1 className="text-xl font-semibold">GPU Reservations</h1>
          <p className="text-sm text-ink-3">Sign in to the console.</p>
        </div>
        {error && (
          <p role="alert" className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">
            {signInErrorMessage(code)}
          </p>
        )}
        <input type="hidden" name="next" value={next ?? '/'} />
        <label className="block text-sm font-medium text-ink-2">
          Email
          <input
            name="email"
            type="email"
            autoComplete="username"
            required
            className="mt-1 block w-full rounded-md border border-line-strong px-3 py-2 text-sm"
          />
        </label>
        <label className="block text-sm font-medium text-ink-2">
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            className="mt-1 block w-full rounded-md border border-line-strong px-3 py-2 text-sm"
          />
        </label>
        <button type="submit" className="w-full rounded-md bg-accent px-4 py-2 text-sm font-semibold text-on-accent hover:bg-accent-strong">
          Sign in
        </button>
      </form>
      <ThemeSwitch theme={await readTheme()} action={setThemeAction} />
    </main>
  );
}
