'use client';

import { makeQueryClient } from '@/server/trpc/query-client';
import type { AppRouter } from '@/server/trpc/root';
import { QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { useState, type ReactNode } from 'react';
import superjson from 'superjson';

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** tRPC + TanStack Query for the console's client components. */
export function TrpcProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  // maxItems: the server refuses a batch of more than 16 calls (server/trpc/http-handler.ts).
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: '/api/trpc', transformer: superjson, maxItems: 16 })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
