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
  // Inside Redoc, the browser's own defaults rather than the console's reset (Tailwind's
  // preflight, a cascade layer): Redoc styles its markup over the browser's defaults. Unlayered
  // and of no specificity, so every rule of Redoc's and every inline style still wins — but not
  // the presentation attributes of an SVG's shapes, which count as author rules that come first:
  // reverted, a path lost its `d` (a CSS property in Chromium) and Redoc's icons drew nothing (the
  // phone menu's button was a blank disc). So what is inside an `<svg>` is left as drawn; the
  // `<svg>` itself is reset like the rest (inline, as Redoc lays it out).
  const reset = ':where(#redoc-root *:not(svg *)) { all: revert; }';
  // Redoc draws its section headings and the response headers' caption in a fixed
  // rgba(38, 50, 56, 0.5): 2.9:1 on white, under WCAG's 4.5 (docs/product.md §8 R7); its theme
  // cannot change it. The id outweighs Redoc's one class.
  const contrast = '#redoc-root :is(h5, caption) { color: #5c6366; }';
  return (
    <main id="main" className="bg-white text-black">
      {nonce && <meta name="sc-nonce" content={nonce} />}
      <style nonce={nonce} dangerouslySetInnerHTML={{ __html: `${reset}\n${css}\n${contrast}` }} />
      <div id="redoc-root" dangerouslySetInnerHTML={{ __html: html }} />
      <RedocHydrate history={readReferenceHistory()} />
    </main>
  );
}
