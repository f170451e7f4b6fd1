import { errorTable, type ErrorCode } from '@/server/errors';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ProblemText } from '../problem-text';

type Params = { params: Promise<{ code: string }> };

const rowOf = (code: string) => (Object.hasOwn(errorTable, code) ? errorTable[code as ErrorCode] : undefined);

export async function generateMetadata({ params }: Params) {
  const row = rowOf((await params).code);
  return { title: `${row ? row.title : 'Not found'} · Problem types · GPU Reservations` };
}

/**
 * What one problem `type` means (docs/product.md §5 Errors: `type` is `/problems/{code}`, a page of
 * this app): its status, title, when it is answered and the extras and headers it always carries,
 * all from the one error table. No sign-in.
 */
export default async function ProblemPage({ params }: Params) {
  const { code } = await params;
  const row = rowOf(code);
  if (!row) notFound();
  const extras: readonly string[] = 'extras' in row ? row.extras : [];
  const headers: readonly string[] = 'headers' in row ? row.headers : [];
  return (
    <main className="mx-auto max-w-3xl space-y-4 p-6">
      <p className="text-sm">
        <Link href="/problems" className="text-accent-ink underline">
          Problem types
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">{row.title}</h1>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-ink-3">HTTP status</dt>
        <dd>{row.status}</dd>
        <dt className="text-ink-3">
          <code>code</code>
        </dt>
        <dd>
          <code>{code}</code>
        </dd>
        <dt className="text-ink-3">Extra fields</dt>
        <dd>{extras.length > 0 ? extras.map((e, i) => [i > 0 && ', ', <code key={e}>{e}</code>]) : 'none'}</dd>
        <dt className="text-ink-3">Headers</dt>
        <dd>{headers.length > 0 ? headers.map((h, i) => [i > 0 && ', ', <code key={h}>{h}</code>]) : 'none'}</dd>
      </dl>
      <p>
        <ProblemText text={row.description} />
      </p>
      <p className="text-sm text-ink-3">
        Every problem body carries <code>type</code> (this page), <code>title</code>, <code>status</code>, <code>detail</code> (a sentence saying what to do)
        and <code>code</code>, besides the extra fields above.
      </p>
    </main>
  );
}
