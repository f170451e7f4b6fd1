/**
 * The capped body reader every HTTP entry point shares (docs/product.md §5 Requests): REST
 * (server/rest/route.ts), tRPC (server/trpc/http-handler.ts), Auth.js's endpoints
 * (server/auth/http.ts) and the proxy (proxy.ts) read a body through it, so that no request can
 * make a process hold more of one than the cap — whichever door it came through.
 */
import { DomainError } from '../errors';

/** docs/product.md §5 Requests: bodies are at most 64 KiB — on REST and tRPC alike. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a request body of at most `maxBytes`, refusing a larger one before reading past the
 * limit: a declared Content-Length over it is refused unread, and a streamed body is cancelled
 * at the first chunk that crosses it, so no request can make the process hold more than
 * `maxBytes` of it (one 50 MiB tRPC body once took the server from 136 MB to 1.3 GB).
 * @returns the bytes read (empty when there is no body).
 * @throws DomainError payload_too_large
 */
export async function readCappedBody(req: Request, maxBytes: number = MAX_BODY_BYTES): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new DomainError('payload_too_large', `The request body exceeds ${maxBytes} bytes.`);
  if (Number(req.headers.get('content-length') ?? '0') > maxBytes) throw tooLarge();
  if (!req.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
