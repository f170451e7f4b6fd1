'use client';

import { QueryClientContext } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';
import { TrpcProvider } from '../trpc-provider';

/** Its children under the page's tRPC provider, or under one of their own where the page has none. */
export function WithTrpc({ children }: { children: ReactNode }) {
  const existing = useContext(QueryClientContext);
  return existing ? children : <TrpcProvider>{children}</TrpcProvider>;
}
