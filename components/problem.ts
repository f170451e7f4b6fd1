import type { Problem } from './trpc-types';

/**
 * The problem+json body a tRPC error carries (server/trpc/init.ts errorFormatter), if any.
 * Told by its name, not `instanceof TRPCClientError`: that import would put the tRPC client in
 * the first load of every page that shows an error, where it loads on demand.
 */
export function problemOf(error: unknown): Problem | null {
  if (error instanceof Error && error.name === 'TRPCClientError') {
    const data = (error as Error & { data?: { problem?: Problem | null } }).data;
    return data?.problem ?? null;
  }
  return null;
}

/** A sentence for the user: the problem's `detail`, or the error's message. */
export function errorMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  return problemOf(error)?.detail ?? (error instanceof Error ? error.message : 'Something went wrong.');
}

/**
 * The messages a problem's `errors[]` gives for one form field, whichever transport answered:
 * REST names it `body.<field>`, tRPC `input.<field>` (server/trpc/init.ts).
 */
export function fieldErrors(error: unknown, field: string): string[] {
  const errors = problemOf(error)?.errors ?? [];
  return errors.filter((e) => e.path.split('.').slice(1).join('.') === field || e.path.split('.').slice(1, 2)[0] === field).map((e) => e.message);
}
