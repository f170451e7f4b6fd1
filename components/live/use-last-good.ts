'use client';

import { useState } from 'react';
import type { Fetched } from '../trpc-types';

/**
 * What a page read, holding on to the last answer that came: a refresh that fails (the rate
 * limit, a database blip) shows its error beside the data the page already had, instead of
 * wiping the page — and with it an open dialog or a selection. A new `key` (another node,
 * another page of a list) starts over: data of another key is never shown for this one.
 * @returns `fetched` itself when it has data; else its error with the last data of this key.
 */
export function useLastGood<T>(fetched: Fetched<T>, key: string): Fetched<T> {
  const [last, setLast] = useState<{ key: string; data: T | undefined }>({ key, data: fetched.data });
  const current = fetched.data !== undefined ? fetched.data : last.key === key ? last.data : undefined;
  // Adjusting state while rendering: React's pattern for state that follows a prop.
  if (last.key !== key || last.data !== current) setLast({ key, data: current });
  return fetched.data !== undefined || current === undefined ? fetched : { ...fetched, data: current };
}
