import type { ConsoleActionId } from '@/server/console-actions';

/**
 * Marks the element through which the console offers an operation (server/console-actions.ts):
 * spread it on the page's heading or the control that starts the action,
 * `<button {...offers('node.reclaim')}>`. server/console-actions.test.ts fails for an id that
 * no page or component registers this way.
 */
export const offers = (id: ConsoleActionId) => ({ 'data-offers': id }) as const;
