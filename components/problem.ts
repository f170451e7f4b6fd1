import type { Problem } from '@/server/errors';
import { TRPCClientError } from '@trpc/client';

/** The problem+json body a tRPC error carries (server/trpc/init.ts errorFormatter), if any. */
export function problemOf(error: unknown): Problem | null {
  if (error instanceof TRPCClientError) {
    const data = error.data as { problem?: Problem | null } | undefined;
    return data?.problem ?? null;
  }
  return null;
}

/** A sentence for the user: the problem's `detail`, or the error's message. */
export function errorMessage(error: unknown): string {
  return problemOf(error)?.detail ?? (error instanceof Error ? error.message : 'Something went wrong.');
}
