import { acceptInviteAction } from '@/app/actions';

export const metadata = { title: 'Invitation · GPU Reservations' };

/**
 * An invitation link (docs/product.md §2 Members). Opening it changes nothing — a link preview or
 * a mail scanner must not spend it —; the button joins, once signed in (the action sends a
 * signed-out visitor to sign-in and back here). The page names no org: whether a link works is
 * learnt only by using it.
 */
export default async function InvitePage({ params, searchParams }: { params: Promise<{ secret: string }>; searchParams: Promise<{ invalid?: string }> }) {
  const { secret } = await params;
  const { invalid } = await searchParams;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6">
      <form action={acceptInviteAction} className="w-full max-w-sm space-y-4 rounded-xl border border-line bg-surface p-8 shadow-sm">
        <div>
          <h1 className="text-xl font-semibold">Join an org</h1>
          <p className="text-sm text-ink-3">An admin of an org on GPU Reservations invited you. The link works once, for 7 days.</p>
        </div>
        {invalid && (
          <p role="alert" className="rounded-md bg-danger-soft p-3 text-sm text-danger-ink">
            This invitation link does not work: it was used, withdrawn or is more than 7 days old. Ask the admin who sent it for a new one.
          </p>
        )}
        <input type="hidden" name="secret" value={secret} />
        <button type="submit" className="w-full rounded-md bg-accent px-4 py-2 text-sm font-semibold text-on-accent hover:bg-accent-strong">
          Accept the invitation
        </button>
      </form>
    </main>
  );
}
