/** The TypeScript SDK of the GPU Reservations API (docs/product.md §5, "SDK and CLI"). */
export { createGpuReservationsClient, isDryRun } from './client';
export type {
  ClientOptions,
  Event,
  EventType,
  EventsOptions,
  GpuReservationsClient,
  ListItem,
  ListPath,
  ReclaimApplied,
  ReclaimDryRun,
  ReclaimResponse,
  Reservation,
} from './client';
export { ApiProblemError, isProblem, readProblem, unwrap } from './problems';
export type { Problem, ProblemOf, ReclaimPlanProblem, ReclaimProblem, ReleaseProblem, TerminateVmProblem } from './problems';
export { createRetryingFetch, takesIdempotencyKey } from './retry';
export type { RetryOptions } from './retry';
export { verifyWebhook } from './webhooks';
export type { WebhookMessage } from './webhooks';
export type { components, paths } from './generated/schema';
