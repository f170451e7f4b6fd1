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
