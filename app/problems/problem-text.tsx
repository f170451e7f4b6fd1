import type { ReactNode } from 'react';

/** A sentence of the error table with its `code spans` set as code, as the document writes them. */
export function ProblemText({ text }: { text: string }): ReactNode {
  return text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}
