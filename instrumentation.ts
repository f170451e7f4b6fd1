/**
 * Runs once when a server process starts (Next's instrumentation hook), before it answers a request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { installSignInDoor } = await import('./server/auth/sign-in-door');
  installSignInDoor();
  // Scheduled reclaims run on every instance: a 250 ms sweep and a job runner that wakes it (docs/product.md §5.6).
  const { startReclaimSweeper } = await import('./server/scheduled-reclaims/sweep');
  void startReclaimSweeper();
  // Webhook deliveries, on every instance: leases make one of them deliver each event (docs/product.md §5.7).
  const { startWebhookDispatcher } = await import('./server/webhooks/dispatch');
  startWebhookDispatcher();
  const { passwordCheckBound, threadPoolSizeFor } = await import('./server/auth/password-checks');
  const needed = threadPoolSizeFor(passwordCheckBound());
  // libuv sized its pool before any of this ran: only whoever starts the process can set it (docs/product.md §9.3).
  if (Number(process.env.UV_THREADPOOL_SIZE ?? 4) < needed) {
    console.warn(
      `[auth] UV_THREADPOOL_SIZE is ${process.env.UV_THREADPOOL_SIZE ?? 'unset (4)'}: start the server with at least ${needed}, so password checks never starve file, DNS and compression work.`,
    );
  }
}
