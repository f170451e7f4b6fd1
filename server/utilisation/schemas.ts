import { z } from 'zod';
import { Id } from '../ids';
import { utilisationRelations, utilisationWindows } from './windows';

const Window = z
  .enum(utilisationWindows)
  .optional()
  .meta({ description: 'The window ending now: `7d` (the default; 6-hour buckets) or `30d` (1-day buckets).' });

/** `GET /v1/nodes/{nodeId}/reservations/{id}/utilisation` (docs/product.md §5.8 Utilisation). */
export const GetReservationUtilisationInput = z.object({ nodeId: Id, reservationId: Id, window: Window }).strict();
export type GetReservationUtilisationInput = z.infer<typeof GetReservationUtilisationInput>;

/** `GET /v1/utilisation` (docs/product.md §5.8 Utilisation): the acting org's roll-up, per relation. */
export const GetUtilisationRollupInput = z
  .object({
    window: Window,
    relation: z
      .enum(utilisationRelations)
      .optional()
      .meta({ description: 'Only this relation (default: every relation the acting org has). `fleet` is the platform operator’s only.' }),
  })
  .strict();
export type GetUtilisationRollupInput = z.infer<typeof GetUtilisationRollupInput>;
