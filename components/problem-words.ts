import { problemOf } from './problem';

/**
 * Problems in words (docs/product.md §6 "errors in words"): what the console says of a failed
 * call, by the labels of the fields it names. Apart from components/problem.ts so that a page
 * that shows no field problem (the node page) does not load these tables with its first load.
 */

/**
 * What the console's forms and filters call each field the API names (docs/product.md §6: a
 * problem names the field by its label, never by its schema path). A field not listed here is
 * shown in words made from its name.
 */
const labels: Record<string, string> = {
  count: 'GPUs back',
  id: 'Node id',
  name: 'Name',
  ownerOrgId: 'Owner org',
  units: 'Units',
  model: 'Model',
  memoryGiB: 'Memory (GiB)',
  nvlinkDomain: 'NVLink domain',
  allowedOrgIds: 'Audience',
  managingOrgIds: 'Managing orgs',
  reservedUnitIds: 'Units',
  unitIds: 'Units',
  startsAt: 'Starts at',
  endsAt: 'Ends at',
  contractRef: 'Contract reference',
  reason: 'Reason',
  nodeId: 'Node',
  reservationId: 'Reservation',
  vmId: 'VM',
  action: 'Action',
  since: 'Since',
  until: 'Until',
  status: 'Status',
  tier: 'Tier',
  expectedTopologyGen: 'Topology generation',
  at: 'Reclaim at',
  q: 'Search',
  owner: 'Owner',
  sort: 'Sort by',
  order: 'Order',
  relation: 'My org',
  hasReleased: 'Released units',
  needsReview: 'Needs review',
  scheduleId: 'Schedule',
};

/** The fields that hold a time: their labels name the zone the form reads them in ("Ends at (Europe/Berlin)", issue 23). */
const timeFields = new Set(['startsAt', 'endsAt', 'since', 'until', 'at']);

/** `memoryGiB` → "memory gi b" is worse than nothing; camel case → words, for names not in `labels`. */
const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
const labelOf = (name: string, zone: string | undefined) =>
  (labels[name] ?? words(name).replace(/^./, (c) => c.toUpperCase())) + (zone && timeFields.has(name) ? ` (${zone})` : '');

/**
 * A problem's field path as the form labels it: `input.units.2.memoryGiB` (or `body.…`,
 * `query.…`) → "Memory (GiB) of unit 3"; `input.unitIds.1` → "Units"; a time field with the
 * `zone` its form reads it in, when given: `input.since` → "Since (UTC)".
 */
export function fieldLabel(path: string, zone?: string): string {
  const parts = path.split('.').slice(1);
  const names = parts.filter((p) => !/^\d+$/.test(p));
  const unitIndex = parts[0] === 'units' && /^\d+$/.test(parts[1] ?? '') ? Number(parts[1]) : null;
  if (unitIndex !== null && names.length > 1) return `${labelOf(names.at(-1)!, zone)} of unit ${unitIndex + 1}`;
  return names.length ? labelOf(names[0]!, zone) : 'A value';
}

/** Schema words in a message, said as a person would read them. */
const rewrites: readonly [RegExp, string | ((match: string, ...groups: string[]) => string)][] = [
  [/must be after startsAt/g, 'must be after the start'],
  // The label names the zone the form reads the field in; the wire's UTC is no business of the person's.
  [/must be an ISO 8601 UTC timestamp such as [^\s]+/g, 'must be a date and time, such as 2026-12-01 00:00'],
  [/Invalid input: expected number, received (NaN|string)/g, 'must be a number'],
  [/Invalid input: expected int, received number/g, 'must be a whole number'],
  [/Too small: expected number to be >=(\d+)/g, 'must be at least $1'],
  [/Too big: expected number to be <=(\d+)/g, 'must be at most $1'],
  [/Invalid input: expected string, received undefined/g, 'is required'],
  [/Invalid option: expected one of (\S+)/g, (_, options: string) => `must be one of ${options.split('|').join(', ')}`],
];

/** A field's message as a sentence: schema words rewritten, a capital, a full stop. */
function sentence(message: string, zone?: string): string {
  let text = message;
  for (const [pattern, replacement] of rewrites)
    text = typeof replacement === 'string' ? text.replace(pattern, replacement) : text.replace(pattern, replacement);
  // A path quoted inside a message (`input.endsAt`, `body.reason`) becomes its label.
  text = text.replace(/\b(?:input|body|query)\.[A-Za-z0-9_.]+/g, (path) => fieldLabel(path, zone));
  text = text.replace(/^./, (c) => c.toUpperCase());
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * A server's sentence for the screen: no transport or schema vocabulary — paths become labels,
 * an error code in parentheses (`(409 unit_missing)`) goes, superjson is never named.
 */
function forPeople(detail: string, zone?: string): string {
  if (/superjson/i.test(detail)) return 'Something in the form could not be sent as it is: check the values you typed.';
  return sentence(detail.replace(/\s*\((?:\d{3} )?[a-z]+(?:_[a-z]+)+\)/g, ''), zone);
}

/**
 * One problem's `errors[]` as sentences for people, each naming its field by its label
 * ("Ends at must be after the start."); a problem of the whole input (a path of one segment)
 * as a sentence of its own. Time fields are labelled with `zone` when given (issue 23).
 */
export function problemSentences(errors: readonly { path: string; message: string }[], zone?: string): string[] {
  return errors.map((e) =>
    e.path.endsWith('.cursor')
      ? // A cursor is only ever a link the console made; what is wrong inside it is no one's business.
        'The page link is invalid (it may be out of date): go back to the first page.'
      : e.path.includes('.')
        ? `${fieldLabel(e.path, zone)} ${sentence(e.message, zone).replace(/^./, (c) => c.toLowerCase())}`
        : forPeople(e.message, zone),
  );
}

type ProblemOf = NonNullable<ReturnType<typeof problemOf>>;
const idList = (ids: readonly string[]) => (ids.length > 1 ? `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}` : (ids[0] ?? ''));
/** What a schedule's status means for a person trying to change it. */
const scheduleStatusWords: Record<string, string> = {
  done: 'has already run',
  cancelled: 'was cancelled',
  lapsed: 'lapsed: its reservation ended first, or whoever scheduled it may no longer reclaim',
};

/**
 * Problems whose extra fields say more to a person than their `detail` (issue 22's scheduled
 * reclaims): said from those fields, what to do next included; null falls back to the detail.
 */
const codeWords: { [C in ProblemOf['code']]?: (p: ProblemOf, zone?: string) => string | null } = {
  // Its detail names the field as the schema spells it, with an ISO timestamp: its `errors[]` by label instead.
  invalid_schedule_time: (p, zone) => (p.errors?.length ? problemSentences(p.errors, zone).join(' ') : null),
  already_scheduled: (p) =>
    p.unitIds?.length
      ? `${idList(p.unitIds)} ${p.unitIds.length === 1 ? 'is' : 'are'} already in a pending scheduled reclaim: reschedule or cancel that one on the reservation’s page, or leave ${p.unitIds.length === 1 ? 'it' : 'them'} out.`
      : null,
  // Its detail names the schema's `reservedUnitIds`.
  unit_not_in_reservation: (p) =>
    p.unitIds?.length
      ? `${idList(p.unitIds)} ${p.unitIds.length === 1 ? 'is' : 'are'} not in this reservation (any more): pick only units it holds, and try again.`
      : null,
  schedule_not_pending: (p) =>
    p.scheduleStatus
      ? `This scheduled reclaim ${scheduleStatusWords[p.scheduleStatus] ?? `is ${p.scheduleStatus}`}, so it can no longer be changed or cancelled.`
      : null,
};

/**
 * A sentence for the user: an invalid request's field problems by label, another problem's
 * `detail` in words (docs/product.md §6 "errors in words"), or the error's message; time fields
 * labelled with the `zone` the form reads them in, when given.
 */
export function errorMessage(error: unknown, zone?: string): string {
  if (typeof error === 'string') return forPeople(error, zone);
  const problem = problemOf(error);
  if (problem?.code === 'invalid_request' && problem.errors?.length) return problemSentences(problem.errors, zone).join(' ');
  const said = problem && codeWords[problem.code]?.(problem, zone);
  if (said) return said;
  if (problem) return forPeople(problem.detail, zone);
  if (error instanceof Error && error.name === 'TRPCClientError') return 'The server could not be reached. Check your connection and try again.';
  return error instanceof Error ? forPeople(error.message) : 'Something went wrong.';
}

/**
 * The messages a problem's `errors[]` gives for one form field, whichever transport answered:
 * REST names it `body.<field>`, tRPC `input.<field>` (server/trpc/init.ts); each a sentence
 * (schema words rewritten), shown under the field's label.
 */
export function fieldErrors(error: unknown, field: string): string[] {
  return messagesFor(problemOf(error)?.errors ?? [], field);
}

/** A field's problems as whole sentences that name it by its label ("Name must not be empty."), for a message not set under its label. */
export function fieldSentences(error: unknown, field: string): string[] {
  return problemSentences((problemOf(error)?.errors ?? []).filter((e) => e.path.split('.').slice(1, 2)[0] === field));
}

/** `fieldErrors` for a problem's `errors[]` as a page read it (Fetched `errors`, a URL filter's). */
export function messagesFor(errors: readonly { path: string; message: string }[], field: string): string[] {
  return errors.filter((e) => e.path.split('.').slice(1).join('.') === field || e.path.split('.').slice(1, 2)[0] === field).map((e) => sentence(e.message));
}

/** What a page read failed with, as a sentence: its field problems by label (time fields with `zone`, the page's), else its detail in words. */
export function fetchedMessage(fetched: { error?: string; errors?: readonly { path: string; message: string }[] }, zone?: string): string {
  return fetched.errors?.length ? problemSentences(fetched.errors, zone).join(' ') : errorMessage(fetched.error ?? '', zone);
}
