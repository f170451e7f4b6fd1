/**
 * The console's downloads of an export (docs/product.md §5.8 "Exports"): `GET /exports/audit`,
 * `/exports/vms`, `/exports/reservations`, authenticated by the console's cookie session instead
 * of an API key, answered by the very export the REST list route gives (server/exports/answer.ts)
 * — the same query fields, the same verb, the same visibility. A GET that changes nothing; a
 * cross-site request never downloads as the signed-in user (docs/product.md §9.3: the browser's
 * Sec-Fetch-Site, or its Origin, must name this site), so another site cannot make a reader's
 * browser fetch its files. The download counts as one request against the user's per-minute limit.
 */
import { getDb } from '@/db/client';
import { getConsoleSession } from '../auth/console-principal';
import { isSameOrigin } from '../auth/csrf';
import { countConsoleRequests } from '../auth/rate-limit';
import { readClockOffsetMs, shifted } from '../clock';
import type { Ctx } from '../context';
import { DomainError, toServiceUnavailable } from '../errors';
import { internalErrorResponse, problemResponse, serviceUnavailableResponse } from '../http/problem';
import { queryObject, readQueryInput } from '../rest/route';
import type { RouteSpec } from '../rest/route-spec';
import { restRoutes } from '../rest/routes';
import { answerExport, type ExportFormat } from './answer';
import { exportRefusalOf, type ExportableInput } from './window';

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A window bound as the console's form sends it: a day (`2026-12-01`, a UTC day: `since` its
 * start, `until` the end of it, so that a form's "to" day is included) or an ISO 8601 timestamp
 * as a page's own since/until filters carry it, left as it is.
 */
function windowBound(value: string | undefined, end: boolean): string | undefined {
  if (value === undefined || !DAY.test(value)) return value;
  const start = new Date(`${value}T00:00:00.000Z`);
  // A day that is no day (2026-11-31, which Date rolls over to 12-01) goes on as it came: the schema refuses it.
  if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== value) return value;
  return new Date(start.getTime() + (end ? DAY_MS : 0)).toISOString();
}

function formatOf(value: string | undefined): ExportFormat {
  if (value === undefined || value === 'csv') return 'csv';
  if (value === 'ndjson') return 'ndjson';
  throw new DomainError('invalid_request', 'The format of a download is csv or ndjson.', {
    errors: [{ path: 'query.format', message: 'must be csv or ndjson' }],
  });
}

/** A browser's navigation (the form's submit), as opposed to a program's or a script's fetch. */
function isNavigation(req: Request): boolean {
  const dest = req.headers.get('sec-fetch-dest');
  if (dest !== null) return dest === 'document';
  return (req.headers.get('accept') ?? '').includes('text/html');
}

/**
 * Where a refused form goes: back to its page, with the page's filters and the window the user
 * chose, and the refusal by name (`exportError`, server/exports/window.ts `exportRefusals`, or
 * `invalid`) — the page says it in its own words beside the form, instead of the browser showing
 * a problem+json document. Only names and the user's own values travel in the URL, never text.
 */
function backToForm(req: Request, page: string, list: string, e: DomainError): Response {
  const sent = new URL(req.url).searchParams;
  const back = new URLSearchParams();
  for (const [name, value] of sent) {
    // A day is the form's own field; anything else is the page's own since/until filter, which goes back as it came.
    if ((name === 'since' || name === 'until') && DAY.test(value)) back.set(`export${name === 'since' ? 'Since' : 'Until'}`, value);
    else if (name !== 'format') back.append(name, value);
  }
  back.set('exportError', exportRefusalOf(e.detail) ?? 'invalid');
  const location = new URL(`${page}?${back.toString()}#export-${list}-title`, req.url);
  return new Response(null, { status: 303, headers: { location: location.pathname + location.search + location.hash, 'cache-control': 'no-store' } });
}

/**
 * The `GET` handler of one console download route.
 * @param path the REST list route whose export it answers (`/v1/audit`).
 * @param page the console page whose form sends it (`/audit`): a refused navigation goes back there.
 * @returns a handler answering the export file (200, streamed), or problem+json: 400 (a field of
 *   the query, the window: required, at most 31 days), 401 (no session), 403 (cross-site), 429 —
 *   except that a browser's navigation refused with a 400 is sent back to its form (303).
 */
export function consoleExportRoute(path: RouteSpec['path'], page: string): (req: Request) => Promise<Response> {
  const spec = restRoutes.find((r) => r.path === path && r.method === 'GET' && r.export);
  if (!spec?.export) throw new Error(`No REST route ${path} declares an export.`);
  const declaration = spec.export;
  return async (req) => {
    try {
      if (!isSameOrigin(req)) throw new DomainError('forbidden', 'A download starts from this console, not from another site.');
      const session = await getConsoleSession();
      if (!session) throw new DomainError('unauthenticated', 'Sign in to the console to download.');
      const db = getDb();
      const at = session.principal.actor.kind === 'user' ? await countConsoleRequests(db, session.principal.actor.userId, 1) : null;
      const clockOffsetMs = await readClockOffsetMs(db);
      const ctx: Ctx = { ...session.principal, db, now: shifted(at ?? new Date(), clockOffsetMs), clock: 'database', clockOffsetMs };
      const { format, since, until, ...rest } = queryObject(new URL(req.url));
      const query: Record<string, string> = { ...rest };
      const from = windowBound(since, false);
      const to = windowBound(until, true);
      if (from !== undefined) query.since = from;
      if (to !== undefined) query.until = to;
      const input = readQueryInput(spec, query) as ExportableInput & Record<string, unknown>;
      return await answerExport({ ctx, list: spec.run, declaration, input, format: formatOf(format), signal: req.signal });
    } catch (e) {
      if (e instanceof DomainError && e.code === 'invalid_request' && isNavigation(req)) return backToForm(req, page, path.slice('/v1/'.length), e);
      if (e instanceof DomainError && e.httpStatus < 500) return problemResponse(e);
      const unavailable = toServiceUnavailable(e);
      if (unavailable) return serviceUnavailableResponse(unavailable, e);
      return internalErrorResponse(e);
    }
  };
}
