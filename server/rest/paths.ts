import { z } from 'zod';
import { Id } from '../ids';

/** Path parameters of node routes. */
export const NodePath = z.object({ nodeId: Id });
/** Path parameters of routes under a reservation (`{id}` is the reservation id). */
export const ReservationPath = z.object({ nodeId: Id, id: Id });
/** Path parameters of VM routes. */
export const VmPath = z.object({ id: Id });
/** Path parameters of API key routes. */
export const ApiKeyPath = z.object({ id: Id });
/** Path parameters of notification routes. */
export const NotificationPath = z.object({ id: Id });
