'use client';

/**
 * A page that failed to render (a bug, or the database away). Says nothing of the failure — in
 * production Next passes no message, only a digest to find it in the server's log — and uses no
 * inline style, which the Content-Security-Policy would block (Next's default page does).
 */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="max-w-sm space-y-3 text-center">
        <h1 className="text-xl font-semibold">Something went wrong</h1>
        <p className="text-sm text-slate-600">The page could not be shown. It has been logged{error.digest ? ` (reference ${error.digest})` : ''}; try again in a moment.</p>
        <button type="button" onClick={reset} className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-700">
          Try again
        </button>
      </div>
    </main>
  );
}
