import Link from 'next/link';
import type { ReactNode } from 'react';

/**
 * The API's documentation pages (docs/product.md §5 "The reference"): outside the console's
 * group, so no sign-in is needed, with their own small header.
 */
export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="border-b border-line bg-surface">
        <nav aria-label="Documentation" className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-5 gap-y-1 px-4 py-3 text-sm sm:px-6">
          {/* A full load, not a client navigation: the reference's styles carry the CSP nonce of the document they load with (app/docs/api/page.tsx). */}
          <a href="/docs/api" className="font-semibold">
            GPU Reservations API
          </a>
          <a href="/docs/api" className="text-ink-3 hover:text-ink">
            Reference
          </a>
          <Link href="/docs/api/changelog" className="text-ink-3 hover:text-ink">
            Changelog
          </Link>
          <Link href="/problems" className="text-ink-3 hover:text-ink">
            Problem types
          </Link>
          <a href="/v1/openapi.json" className="text-ink-3 hover:text-ink">
            openapi.json
          </a>
          <Link href="/" className="ml-auto text-ink-3 hover:text-ink">
            Console
          </Link>
        </nav>
      </header>
      {children}
    </>
  );
}
