'use client';

import { redocOptions, withHistory, type ReferenceHistory } from '@/server/openapi/redoc-options';
import { createElement, useEffect, type ReactNode } from 'react';
import { keepReferenceAccessible } from './redoc-a11y';

/**
 * Imports Redoc's browser code. Evaluating it injects a stylesheet of its own (its bundled
 * style-loader, with a nonce only Redoc's standalone build can set) as the module loads: the
 * `<style>` elements made meanwhile get the document's CSP nonce, as the `sc-nonce` meta hands
 * it to styled-components, rather than being refused by the CSP.
 */
async function importRedoc() {
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="sc-nonce"]')?.content;
  const create = document.createElement.bind(document);
  if (nonce) {
    document.createElement = ((tagName: string, options?: ElementCreationOptions) => {
      const el = create(tagName, options);
      if (tagName.toLowerCase() === 'style') el.setAttribute('nonce', nonce);
      return el;
    }) as typeof document.createElement;
  }
  try {
    return await import('redoc');
  } finally {
    document.createElement = create;
  }
}

/**
 * Redoc as the server rendered it (a component of no markup of its own, so hydration matches),
 * mended for axe once hydrated (./redoc-a11y.ts).
 */
function Accessible({ root, children }: { root: HTMLElement; children: ReactNode }) {
  useEffect(() => keepReferenceAccessible(root), [root]);
  return children;
}

/**
 * Makes the server-rendered reference interactive (docs/product.md §5 "The reference"): once the
 * page has loaded, fetches Redoc's browser code (on demand: it is no part of any page's first
 * load) and the served document, and hydrates Redoc's markup in `#redoc-root` with the same
 * document and options the server rendered. Until then, and without scripts, the page reads the
 * same; only the menu, tabs and drop-downs wait for it.
 */
export function RedocHydrate({ history }: { history: ReferenceHistory }) {
  useEffect(() => {
    const root = document.getElementById('redoc-root');
    if (!root) return;
    let cancelled = false;
    void (async () => {
      const [{ Redoc, createStore }, { hydrateRoot }, res] = await Promise.all([importRedoc(), import('react-dom/client'), fetch('/v1/openapi.json')]);
      const store = await createStore(withHistory((await res.json()) as object, history), undefined, redocOptions);
      if (!cancelled) hydrateRoot(root, createElement(Accessible, { root, children: createElement(Redoc, { store }) }));
    })();
    return () => {
      cancelled = true;
    };
  }, [history]);
  return null;
}
