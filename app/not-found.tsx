import { NotFoundMessage } from '@/components/not-found-message';

export const metadata = { title: 'Not found · GPU Reservations' };

/**
 * Every unknown page (docs/product.md §6). Our own rather than Next's default, whose inline
 * `<style>` the Content-Security-Policy (proxy.ts) would block. Outside the console layout, so
 * it is the page's one `<main>`; a console page's notFound() renders app/(console)/not-found.tsx.
 */
export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <NotFoundMessage />
    </main>
  );
}
