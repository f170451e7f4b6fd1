/**
 * The console's view of the API: every type a component needs, inferred from the tRPC router
 * (RouterOutputs), so components never import server modules for their shapes.
 */
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { TRPCClientErrorLike } from '@trpc/client';
import type { AppRouter } from '@/server/trpc/root';

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;

export type NodeData = RouterOutputs['nodes']['get'];
export type UnitView = NodeData['units'][number];
export type UnitState = UnitView['state'];
export type Reservation = RouterOutputs['reservations']['get'];
export type ReservationItem = RouterOutputs['reservations']['listForNode']['items'][number];
export type ReservationAction = ReservationItem['actions'][number];
export type VmView = RouterOutputs['vms']['get'];
export type ReclaimResult = RouterOutputs['reservations']['reclaim'];
export type AuditEvent = RouterOutputs['audit']['list']['items'][number];
export type HistoryEntry = RouterOutputs['reservations']['history']['entries'][number];
export type ApiKeyView = RouterOutputs['apiKeys']['list']['items'][number];
export type CreatedApiKey = RouterOutputs['apiKeys']['create'];
export type WebhookView = RouterOutputs['webhooks']['get'];
export type WebhookWithSecret = RouterOutputs['webhooks']['create'];
export type WebhookAttempt = RouterOutputs['webhooks']['attempts']['items'][number];
export type NotificationView = RouterOutputs['audit']['notifications']['items'][number];
export type LockedSignIn = RouterOutputs['signIns']['locked']['items'][number];
/** A scheduled reclaim of some of a reservation's units (issue 22). */
export type ReclaimSchedule = RouterOutputs['scheduledReclaims']['get'];
/** The problem+json a failed call carries (server/trpc/init.ts errorFormatter), as REST answers it. */
export type Problem = NonNullable<TRPCClientErrorLike<AppRouter>['data']>['problem'];
/** A VM on the node page, with the actions the server offers on it. */
export type NodeVm = RouterOutputs['vms']['listForNode'][number];
/**
 * What a server page read for a client component rendered from props (app/(console)/server-reads.ts
 * `prefetched`): the data, or the problem in words for a person (`error`, shown as it is) and its
 * `code` (and the API's `errors[]` for an invalid input, for the filters); `limited` when it was
 * not asked (over the rate limit: the next refresh asks again).
 */
export type Fetched<T> = { data?: T; error?: string; code?: NonNullable<Problem>['code']; errors?: { path: string; message: string }[]; limited?: true };
export type MembersPage = RouterOutputs['members']['list'];
export type MemberView = MembersPage['members'][number];
export type InviteView = MembersPage['invites'][number];
export type CreatedInvite = RouterOutputs['members']['invite'];
