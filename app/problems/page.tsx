import { errorTable, problemType, type ErrorCode } from '@/server/errors';
import Link from 'next/link';

export const metadata = { title: 'Problem types · GPU Reservations' };

/**
 * Every problem `type` the API answers with, from the one error table (docs/product.md §5 Errors):
 * the index of the pages that `/problems/{code}` URIs resolve to. No sign-in: a client that got a
 * problem must be able to read what it means.
 */
export default function ProblemsPage() {
  const codes = Object.keys(errorTable) as ErrorCode[];
  return (
    <main className="mx-auto max-w-3xl space-y-6 p-6">
      <h1 className="text-2xl font-semibold">Problem types</h1>
      <p className="text-ink-2">
        Every error of the GPU Reservations API is an RFC 9457 <code>application/problem+json</code> body whose <code>type</code> is one of these pages and
        whose <code>code</code> names it.
      </p>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Problem types by HTTP status and code</caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Code</th>
            <th scope="col">Title</th>
          </tr>
        </thead>
        <tbody>
          {codes.map((code) => (
            <tr key={code}>
              <td>{errorTable[code].status}</td>
              <td>
                <Link href={problemType(code)} className="text-accent-ink underline">
                  <code>{code}</code>
                </Link>
              </td>
              <td>{errorTable[code].title}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
