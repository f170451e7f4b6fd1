/**
 * Renders the API reference with Redoc (docs/product.md §5 "The reference"), in a process of its
 * own: `node server/openapi/redoc-render.mjs` reads `{ "document": …, "options": … }` on stdin
 * and writes `{ "html": …, "css": … }` on stdout — Redoc's server rendering of the document and
 * the styles it uses. Plain Node, outside Next's bundles: Redoc is a React app rendered with
 * react-dom/server, which a Server Component may not import, so server/openapi/redoc.ts runs
 * this once per process and keeps the result.
 */
import { createRequire } from 'node:module';
import process from 'node:process';

const require = createRequire(import.meta.url);
const React = require('react');
const { renderToString } = require('react-dom/server');
const { ServerStyleSheet } = require('styled-components');
const { Redoc, createStore } = require('redoc');

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { document, options } = JSON.parse(input);
const store = await createStore(document, undefined, options);
const sheet = new ServerStyleSheet();
try {
  const html = renderToString(sheet.collectStyles(React.createElement(Redoc, { store })));
  // The rules alone: the page puts them in a <style> of its own that carries the CSP nonce.
  const css = sheet.instance.toString();
  process.stdout.write(JSON.stringify({ html, css }));
} finally {
  sheet.seal();
}
