/** The events feed (docs/product.md §5.7): one declaration (server/operation.ts). */
import { EventPage } from '../openapi/schemas';
import { operation, type OperationGroup } from '../operation';
import { listEvents } from './feed';
import { ListEventsInput } from './schemas';

export const eventOperations = {
  list: operation({
    verb: listEvents,
    input: ListEventsInput,
    kind: 'query',
    scope: 'read',
    console: { apiOnly: 'a feed for programs; the console follows the same events through its pages' },
    rest: {
      method: 'GET',
      path: '/v1/events',
      operationId: 'listEvents',
      tag: 'Events',
      summary: "Read the acting org's events",
      description:
        "Every change writes typed events in its own transaction, addressed to the orgs that may see it then, each with the fields it may see. This feed answers the acting org's events after `after`, in commit order: an event is served only once every transaction that began before it has ended, so a cursor never passes over one that commits late. With `wait`, the request is held until an event is there (at most 30 s). Events are kept 30 days; an older cursor answers 410 `cursor_expired`.",
      response: EventPage,
      responseDescription: 'The events after the cursor (possibly none), and the cursor to read on from.',
      errors: ['cursor_expired'],
    },
  }),
} satisfies OperationGroup;
