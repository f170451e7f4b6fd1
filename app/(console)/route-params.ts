import { notFound } from 'next/navigation';

/**
 * A console page's path parameter, percent-decoded; one that does not decode (`%25`, a lone
 * `%E0`) names nothing, so the page is a 404 rather than a URIError (a 500).
 */
export function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    notFound();
  }
}
