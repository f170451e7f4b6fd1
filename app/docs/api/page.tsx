import { DocText } from '@/components/api-reference/doc-text';
import { OperationSection } from '@/components/api-reference/operation-section';
import { SchemaFields, type Json } from '@/components/api-reference/schema-fields';
import { getServedDocument } from '@/server/openapi/reference';
import { listOperationHistory, listRevisions } from '@/server/openapi/revisions';
import Link from 'next/link';

export const metadata = { title: 'API reference · GPU Reservations' };

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * The API reference (docs/product.md §5 "The reference"): the document `GET /v1/openapi.json`
 * serves, rendered on the server by our own components — every operation with its parameters
 * and limits, bodies, answers, problem codes, examples and history — so the page loads no
 * renderer and no script of its own, and nothing from another site. No sign-in.
 */
export default function ApiReferencePage() {
  const doc = getServedDocument() as unknown as Json & ReturnType<typeof getServedDocument>;
  const revisions = listRevisions();
  const latest = revisions.at(-1);
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    methods.flatMap((method) => (item?.[method] ? [{ path, method, op: item[method] as unknown as Json }] : [])),
  );
  const tags = (doc.tags ?? []).map((t) => ({ ...t, operations: operations.filter((o) => (o.op.tags as string[] | undefined)?.[0] === t.name) }));
  const schemas = Object.entries(doc.components?.schemas ?? {}).filter(([name]) => !name.endsWith('Problem'));
  return (
    <main id="main" className="mx-auto max-w-5xl space-y-8 px-4 py-6 sm:px-6">
      <section className="space-y-3">
        <h1 className="text-2xl font-semibold">{doc.info.title}</h1>
        <p className="text-sm text-ink-3">
          Version {doc.info.version}
          {latest && (
            <>
              {' · '}
              <Link href="/docs/api/changelog" className="text-accent-ink underline">
                revision {latest.revision} of {latest.date}
              </Link>
            </>
          )}
          {' · '}
          <a href="/v1/openapi.json" className="text-accent-ink underline">
            the OpenAPI 3.1 document
          </a>
          {doc.info.license && ` · ${doc.info.license.name} licence`}
        </p>
        <div className="space-y-2 text-sm">{doc.info.description && <DocText text={doc.info.description} block />}</div>
      </section>
      <nav aria-label="Operations" className="space-y-3">
        <h2 className="text-xl font-semibold">Operations</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          {tags
            .filter((t) => t.operations.length > 0)
            .map((t) => (
              <div key={t.name}>
                <h3 className="font-semibold">{t.name}</h3>
                <ul className="text-sm">
                  {t.operations.map(({ method, path, op }) => (
                    <li key={`${method} ${path}`}>
                      <a href={`#${String(op.operationId)}`} className="text-accent-ink underline">
                        {String(op.summary)}
                      </a>{' '}
                      <span className="font-mono text-xs text-ink-3">
                        {method.toUpperCase()} {path}
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
        </div>
      </nav>
      {tags
        .filter((t) => t.operations.length > 0)
        .map((t) => (
          <section key={t.name} aria-labelledby={`tag-${t.name}`} className="space-y-4">
            <h2 id={`tag-${t.name}`} className="text-xl font-semibold">
              {t.name}
            </h2>
            {t.description && <p className="text-sm text-ink-3">{t.description}</p>}
            {t.operations.map(({ method, path, op }) => (
              <OperationSection
                key={`${method} ${path}`}
                doc={doc}
                method={method}
                path={path}
                op={op}
                history={listOperationHistory(`${method.toUpperCase()} ${path}`)}
                revisions={revisions.length}
              />
            ))}
          </section>
        ))}
      <section aria-labelledby="schemas" className="space-y-4">
        <h2 id="schemas" className="text-xl font-semibold">
          Schemas
        </h2>
        <p className="text-sm text-ink-3">
          The named types the operations use. Each problem type is on its own page under{' '}
          <Link href="/problems" className="text-accent-ink underline">
            Problem types
          </Link>
          .
        </p>
        {schemas.map(([name, schema]) => (
          <section key={name} id={`schema-${name}`} aria-label={name} className="scroll-mt-4 space-y-2 rounded-lg border border-line bg-surface p-4">
            <h3 className="font-mono font-semibold">{name}</h3>
            {typeof (schema as Json).description === 'string' && (
              <p className="text-sm">
                <DocText text={(schema as Json).description as string} />
              </p>
            )}
            <SchemaFields doc={doc} schema={schema} depth={1} />
          </section>
        ))}
      </section>
    </main>
  );
}
