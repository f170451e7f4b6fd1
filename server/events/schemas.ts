import { z } from 'zod';
import { LimitNumber, queryDigits } from '../pagination';
import { eventTypes, type EventType } from './catalog';

/** The longest a feed request waits for an event (docs/product.md §5.7). */
export const MAX_WAIT_SECONDS = 30;

/** `wait`: seconds to hold the request while no event is there, 0–30. */
export const WaitSeconds = z
  .int({ error: `must be an integer from 0 to ${MAX_WAIT_SECONDS}` })
  .min(0, 'must be at least 0')
  .max(MAX_WAIT_SECONDS, `must be at most ${MAX_WAIT_SECONDS}`);

/** `wait` as a query string carries it: digits, read into WaitSeconds (server/rest/wire.ts), an integer with its range in the document. */
export const WaitQuery = z.preprocess(queryDigits, WaitSeconds);

const knownTypes = new Set<string>(eventTypes);
const typeAlternatives = eventTypes.map((t) => t.replaceAll('.', '\\.')).join('|');

/** `types`: a comma-separated list of event types, each known (docs/product.md §5.7). */
export const EventTypesFilter = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  // The document's form of the check below: known names, comma-separated.
  .meta({ pattern: `^(?:${typeAlternatives})(?:,(?:${typeAlternatives}))*$` })
  .transform((s, ctx) => {
    const names = s.split(',');
    for (const name of names) {
      if (!knownTypes.has(name)) ctx.addIssue({ code: 'custom', message: `"${name.slice(0, 100)}" is not an event type (${eventTypes.join(', ')})` });
    }
    return [...new Set(names)] as EventType[];
  });

/** `GET /v1/events` (docs/product.md §5.7): the acting org's events after a cursor, in commit order. */
export const ListEventsInput = z
  .object({
    after: z
      .string()
      .max(200, 'must be at most 200 characters')
      .optional()
      .meta({ description: 'The nextCursor of a previous answer. Absent: from the oldest event kept (30 days).' }),
    types: EventTypesFilter.optional().meta({ description: 'Only these event types, comma-separated (e.g. `vm.reclaimed,vm.reclaim_scheduled`).' }),
    wait: WaitSeconds.optional().meta({ description: 'Seconds (0–30) to wait for an event when none is there yet; the answer comes as soon as one is.' }),
    limit: LimitNumber.optional(),
  })
  .strict();
export type ListEventsInput = z.infer<typeof ListEventsInput>;
