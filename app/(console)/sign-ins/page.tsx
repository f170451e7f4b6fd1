import { LockedSignInsView } from '@/components/sign-ins/locked-sign-ins-view';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';

export const metadata = { title: 'Locked sign-ins · GPU Reservations' };

/** The operator's locked sign-ins (docs/product.md §9.3), read here and rendered from these props; others see the 403's sentence. */
export default async function SignInsPage() {
  const locked = trpc.signIns.locked.queryOptions();
  await prefetch(locked);
  return <LockedSignInsView locked={prefetched(locked)} />;
}
