/**
 * The console's live stream (docs/product.md §5.7 "Live console", §6): `GET /api/events` answers
 * `text/event-stream` — server-sent events over the acting org's feed, from the moment it opens —
 * so an open node or fleet page renders again within a second of a change it may see. Each
 * message names only what a page needs to decide whether to refresh (`type`, `nodeId`); the page
 * then reads what it shows through its own verbs, under its own visibility.
 *
 * Authenticated by the console's cookie session, as the exports are, and refused cross-site.
 * The session is checked again before every message and at least every 15 s: signing out (or
 * out everywhere), or leaving the acting org, ends the stream. A stream lasts at most
 * 5 minutes (the browser's EventSource reconnects by itself, with `Last-Event-ID`), so no
 * connection is held forever; it holds no pooled database connection while it waits
 * (server/events/listen.ts).
 */
import { getDb } from '@/db/client';
import { cookies } from 'next/headers';
import { auth } from '../auth/config';
import { ACTING_ORG_COOKIE } from '../auth/console-principal';
import { isSameOrigin } from '../auth/csrf';
import { resolveConsoleSession } from '../auth/sessions';
import { DomainError, toServiceUnavailable } from '../errors';
import { internalErrorResponse, problemResponse, serviceUnavailableResponse } from '../http/problem';
import { decodePosition, encodePosition, headPosition, readFeed, type Position } from './feed';
import { waitForEvents } from './listen';

/** The longest one stream stays open; the browser reconnects after it. */
const STREAM_MS = 5 * 60_000;
/** How often a quiet stream says it is alive (a comment) and checks its session. */
const HEARTBEAT_MS = 15_000;

/**
 * The GET handler of `/api/events`.
 * @returns 200 `text/event-stream`; 401 (no session), 403 (cross-site) as problem+json; 503 while
 *   the database is unreachable.
 */
export async function consoleEventStream(req: Request): Promise<Response> {
  try {
    if (!isSameOrigin(req)) throw new DomainError('forbidden', 'The live stream is for this console, not another site.');
    const session = await auth();
    const userId = session?.user?.id;
    const sessionId = session?.sessionId;
    if (!userId || !sessionId) throw new DomainError('unauthenticated', 'Sign in to the console to follow it live.');
    const remembered = (await cookies()).get(ACTING_ORG_COOKIE)?.value;
    const db = getDb();
    const live = () => resolveConsoleSession(db, { userId, sessionId }, remembered);
    const first = await live();
    if (!first) throw new DomainError('unauthenticated', 'Sign in to the console to follow it live.');
    const principal = first.principal;
    const resumeFrom = req.headers.get('last-event-id');
    let position: Omit<Position, 't'> = resumeFrom ? (decodeResume(resumeFrom) ?? (await headPosition(db))) : await headPosition(db);

    const encoder = new TextEncoder();
    const closed = { value: false };
    req.signal.addEventListener('abort', () => (closed.value = true));
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (text: string) => controller.enqueue(encoder.encode(text));
        const until = Date.now() + STREAM_MS;
        // Reconnect a second after the server ends a stream (the browser's default is about 3 s).
        send('retry: 1000\n\n');
        // Where it starts, as the browser's Last-Event-ID (an id alone dispatches nothing): a
        // reconnect resumes here even when no change came before the stream ended.
        const mark = () => send(`id: ${encodePosition({ ...position, t: Date.now() })}\n\n`);
        mark();
        try {
          let lastBeat = Date.now();
          while (!closed.value && Date.now() < until) {
            const { settled } = await readFeed(db, principal, position, undefined, 100);
            if (settled.length > 0 || Date.now() - lastBeat >= HEARTBEAT_MS) {
              // Still this session, still this acting org: else the stream ends here.
              const now = await live();
              if (!now || now.principal.orgId !== principal.orgId) break;
            }
            for (const e of settled) {
              position = { x: Number(e.xid), s: Number(e.seq) };
              const data = JSON.stringify({ type: e.type, ...(typeof e.data?.nodeId === 'string' ? { nodeId: e.data.nodeId } : {}) });
              send(`id: ${encodePosition({ ...position, t: Date.now() })}\nevent: change\ndata: ${data}\n\n`);
            }
            if (settled.length > 0) continue;
            if (Date.now() - lastBeat >= HEARTBEAT_MS) {
              mark();
              lastBeat = Date.now();
            }
            await waitForEvents(principal.orgId, Math.min(1000, until - Date.now()));
          }
        } catch (e) {
          // The database gone or the client gone: the browser reconnects, the page polls meanwhile.
          // A write after the client went away (`ERR_INVALID_STATE`, the stream already closed) is the client gone too.
          const clientGone = closed.value || (e instanceof TypeError && (e as TypeError & { code?: string }).code === 'ERR_INVALID_STATE');
          if (!clientGone && !toServiceUnavailable(e)) console.error('[events] the live stream failed', e);
        } finally {
          closed.value = true;
          try {
            controller.close();
          } catch {
            // already closed by the client
          }
        }
      },
      cancel() {
        closed.value = true;
      },
    });
    return new Response(stream, {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store, no-transform', 'x-accel-buffering': 'no' },
    });
  } catch (e) {
    if (e instanceof DomainError && e.httpStatus < 500) return problemResponse(e);
    const unavailable = toServiceUnavailable(e);
    if (unavailable) return serviceUnavailableResponse(unavailable, e);
    return internalErrorResponse(e);
  }
}

/** A `Last-Event-ID` the stream handed out, or null (then it starts at the head, as a new one does). */
function decodeResume(id: string): Omit<Position, 't'> | null {
  try {
    const p = decodePosition(id, 'header.Last-Event-ID');
    return { x: p.x, s: p.s };
  } catch {
    return null;
  }
}
