import { RedocHydrate } from '@/components/api-reference/redoc-hydrate';
import { NONCE_HEADER } from '@/server/http/page-headers';
import { renderReference } from '@/server/openapi/redoc';
import { readReferenceHistory } from '@/server/openapi/reference';
import { headers } from 'next/headers';

export const metadata = { title: 'API reference · GPU Reservations' };

/**
 * The API reference (docs/product.md §5 "The reference"): the document `GET /v1/openapi.json`
 * serves, rendered by Redoc on the server — every operation with its parameters and limits,
 * bodies, answers, problem codes, examples and history — so the page reads before any script
 * runs; Redoc's browser code loads on demand after it and makes it interactive. No sign-in.
 * Redoc's CSS is in a <style> that carries the request's CSP nonce, and the `sc-nonce` meta hands
 * the nonce to the styles Redoc adds in the browser (styled-components reads it); links to this
 * page are plain links (a full load), so the nonce is always the document's own.
 */
export default async function ApiReferencePage() {
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  const { html, css } = await renderReference();
  return (
    <main id="main" className="bg-white text-black">
      {nonce && <meta name="sc-nonce" content={nonce} />}
      <style nonce={nonce} dangerouslySetInnerHTML={{ __html: css }} />
      <div id="redoc-root" dangerouslySetInnerHTML={{ __html: html }} />
      <RedocHydrate history={readReferenceHistory()} />
    </main>
  );
}
