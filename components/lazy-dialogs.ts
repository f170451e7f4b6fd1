import { lazyWithTrpc } from './live/lazy-with-trpc';

// The reservation dialogs the node page and the reservation page both open: loaded on demand,
// and with them the data layer they call the server through (lazyWithTrpc), never with a page.
// React.lazy rather than next/dynamic: they never render on the server, and next/dynamic's
// SSR preloading costs every page that uses it ~1.5 kB of first-load JS.
export const ReclaimDialog = lazyWithTrpc(() => import('./reclaim-dialog').then((m) => m.ReclaimDialog));
export const ReleaseDialog = lazyWithTrpc(() => import('./reservation-dialogs').then((m) => m.ReleaseDialog));
export const EditReservationDialog = lazyWithTrpc(() => import('./reservation-dialogs').then((m) => m.EditReservationDialog));
export const CancelReservationDialog = lazyWithTrpc(() => import('./reservation-dialogs').then((m) => m.CancelReservationDialog));
export const ReaffirmDialog = lazyWithTrpc(() => import('./topology-dialogs').then((m) => m.ReaffirmDialog));
