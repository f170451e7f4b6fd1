import type { ReactNode } from 'react';

/**
 * A description of the OpenAPI document as the document writes it (docs/product.md §5 "The
 * reference"): `code spans` and **bold**, paragraphs split on blank lines. Only these two marks
 * are read, so no HTML of the document is ever rendered as HTML.
 */
export function DocText({ text, block = false }: { text: string; block?: boolean }): ReactNode {
  const inline = (line: string) =>
    line
      .split('`')
      .map((part, i) =>
        i % 2 === 1 ? <code key={i}>{part}</code> : part.split('**').map((bit, j) => (j % 2 === 1 ? <strong key={`${i}-${j}`}>{bit}</strong> : bit)),
      );
  if (!block) return inline(text);
  return text.split(/\n\n+/).map((p, i) => <p key={i}>{inline(p)}</p>);
}
