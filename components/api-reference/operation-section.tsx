import Link from 'next/link';
import { DocText } from './doc-text';
import { OperationHistory, type OperationHistoryData } from './operation-history';
import { limitsOf, resolveRef, SchemaFields, type Json } from './schema-fields';

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The problem codes one error response can carry: its schema's `code` constant, or each variant's. */
function problemCodes(doc: Json, response: Json): string[] {
  const content = isJson(response.content) ? response.content : {};
  const media = isJson(content['application/problem+json']) ? content['application/problem+json'] : {};
  const s = resolveRef(doc, media.schema).node;
  const variants = [...(Array.isArray(s.oneOf) ? s.oneOf : []), ...(Array.isArray(s.anyOf) ? s.anyOf : [])];
  return (variants.length > 0 ? variants : [s]).flatMap((v) => {
    const code = resolveRef(doc, v).node.properties;
    const c = isJson(code) && isJson(code.code) ? code.code.const : undefined;
    return typeof c === 'string' ? [c] : [];
  });
}

/** A media type's examples: its one `example`, or each named one with its summary. */
function examplesOf(media: Json): { title?: string; value: unknown }[] {
  if (media.example !== undefined) return [{ value: media.example }];
  if (!isJson(media.examples)) return [];
  return Object.entries(media.examples).map(([name, e]) => ({
    title: isJson(e) && typeof e.summary === 'string' ? e.summary : name,
    value: isJson(e) ? e.value : e,
  }));
}

function Examples({ media, label }: { media: Json; label: string }) {
  const all = examplesOf(media);
  if (all.length === 0) return null;
  return (
    <div className="space-y-2">
      {all.map((e, i) => (
        <figure key={i}>
          <figcaption className="text-xs text-ink-3">
            {label}
            {e.title ? `: ${e.title}` : ''}
          </figcaption>
          <pre className="max-h-80 overflow-auto rounded-md border border-line bg-surface-2 p-2 text-xs">{JSON.stringify(e.value, null, 2)}</pre>
        </figure>
      ))}
    </div>
  );
}

const methodColour: Record<string, string> = {
  get: 'text-ok-ink',
  post: 'text-info-ink',
  put: 'text-warn-ink',
  patch: 'text-warn-ink',
  delete: 'text-danger',
};

/**
 * One operation of the served OpenAPI document, rendered on the server (docs/product.md §5
 * "The reference"): method and path, who may call it (its security), parameters with every
 * limit, the request body's fields, each response's fields and the problem codes per status
 * (linked to their `/problems/{code}` pages), the examples, and its history in the changelog.
 */
export function OperationSection({
  doc,
  method,
  path,
  op,
  history,
  revisions,
}: {
  doc: Json;
  method: string;
  path: string;
  op: Json;
  history: OperationHistoryData;
  revisions: number;
}) {
  const id = typeof op.operationId === 'string' ? op.operationId : `${method}-${path}`;
  const parameters = (Array.isArray(op.parameters) ? op.parameters : []).map((p) => resolveRef(doc, p).node);
  const body = isJson(op.requestBody) ? resolveRef(doc, op.requestBody).node : undefined;
  const bodyMedia = body && isJson(body.content) ? Object.entries(body.content) : [];
  const responses = isJson(op.responses) ? Object.entries(op.responses) : [];
  const open = Array.isArray(op.security) && op.security.length === 0;
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-4 space-y-4 rounded-lg border border-line bg-surface p-4">
      <header className="space-y-1">
        <h3 id={`${id}-title`} className="text-lg font-semibold">
          {typeof op.summary === 'string' ? op.summary : id}
        </h3>
        <p className="font-mono text-sm wrap-anywhere">
          <span className={`font-bold uppercase ${methodColour[method] ?? ''}`}>{method}</span> {path}
        </p>
        <p className="text-xs text-ink-3">
          <code>{id}</code> · {open ? 'no credentials' : 'Authorization: Bearer <api key>'}
        </p>
      </header>
      {typeof op.description === 'string' && (
        <div className="space-y-2 text-sm">
          <DocText text={op.description} block />
        </div>
      )}
      {parameters.length > 0 && (
        <div className="space-y-1">
          <h4 className="font-semibold">Parameters</h4>
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-ink-3">
              <tr>
                <th scope="col">Name</th>
                <th scope="col">In</th>
                <th scope="col">Type and limits</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line align-top">
              {parameters.map((p) => {
                const s = isJson(p.schema) ? p.schema : {};
                return (
                  <tr key={`${String(p.in)}-${String(p.name)}`}>
                    <td className="py-1 pr-2">
                      <code className="font-semibold">{String(p.name)}</code>
                      {p.required === true && <span className="ml-1 text-xs font-semibold text-accent-ink">required</span>}
                    </td>
                    <td className="pr-2">{String(p.in)}</td>
                    <td className="pr-2 font-mono text-xs wrap-anywhere">
                      {typeof s.type === 'string' ? s.type : 'string'}
                      {Array.isArray(s.enum) && ` ${s.enum.map((v) => JSON.stringify(v)).join(' | ')}`}
                      {limitsOf(s).length > 0 && ` · ${limitsOf(s).join(' · ')}`}
                      {s.example !== undefined && ` · e.g. ${JSON.stringify(s.example)}`}
                    </td>
                    <td>{typeof p.description === 'string' && <DocText text={p.description} />}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {body && (
        <div className="space-y-2">
          <h4 className="font-semibold">
            Request body{' '}
            {body.required === true ? <span className="text-xs text-accent-ink">required</span> : <span className="text-xs text-ink-3">optional</span>}
          </h4>
          {bodyMedia.map(([type, media]) => (
            <div key={type} className="space-y-2">
              <p className="text-xs text-ink-3">{type}</p>
              <SchemaFields doc={doc} schema={isJson(media) ? media.schema : undefined} />
              {isJson(media) && <Examples media={media} label="Example request" />}
            </div>
          ))}
        </div>
      )}
      <div className="space-y-2">
        <h4 className="font-semibold">Responses</h4>
        {responses
          .filter(([status]) => status.startsWith('2'))
          .map(([status, raw]) => {
            const r = resolveRef(doc, raw).node;
            return (
              <div key={status} className="space-y-2">
                <p className="text-sm">
                  <strong>{status}</strong> {typeof r.description === 'string' && <DocText text={r.description} />}
                </p>
                {Object.entries(isJson(r.content) ? r.content : {}).map(([type, media]) => (
                  <div key={type} className="space-y-2">
                    <p className="text-xs text-ink-3">{type}</p>
                    <SchemaFields doc={doc} schema={isJson(media) ? media.schema : undefined} />
                    {isJson(media) && <Examples media={media} label="Example answer" />}
                  </div>
                ))}
              </div>
            );
          })}
        <table className="w-full text-left text-sm">
          <caption className="text-left text-xs text-ink-3">Problems (application/problem+json), by status</caption>
          <tbody className="divide-y divide-line align-top">
            {responses
              .filter(([status]) => !status.startsWith('2'))
              .map(([status, raw]) => (
                <tr key={status}>
                  <th scope="row" className="py-1 pr-3 font-semibold">
                    {status}
                  </th>
                  <td>
                    {problemCodes(doc, resolveRef(doc, raw).node).map((code, i) => (
                      <span key={code}>
                        {i > 0 && ', '}
                        <Link href={`/problems/${code}`} className="text-accent-ink underline">
                          <code>{code}</code>
                        </Link>
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
      <OperationHistory history={history} revisions={revisions} />
    </section>
  );
}
