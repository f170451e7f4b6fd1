/**
 * Type-level tests of the operation declarations (server/operation.ts), checked by `tsc`
 * (`npm run typecheck`), never run: the build fails when one fails.
 * 1. A REST response schema that does not describe what the verb returns is refused.
 * 2. tRPC's RouterInputs / RouterOutputs, which the router derives from the declarations, are
 *    pinned procedure by procedure to the verbs' own input and view types (and are never `any`).
 */
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { z } from 'zod';
import type { ApiKeyView, CreatedApiKeyView } from './api-keys/view';
import type { CreateApiKeyInput, ListApiKeysInput, RevokeApiKeyInput } from './api-keys/schemas';
import type { ListAuditInput } from './audit/schemas';
import type { AuditEventView } from './audit/view';
import type { EventPage } from './events/feed';
import type { MembershipRole } from '@/db/schema';
import type { ChangeMemberRoleInput, InviteMemberInput, RemoveMemberInput, RevokeInviteInput } from './members/schemas';
import type { CreatedInviteView, InviteView, MembersView } from './members/view';
import type { ListEventsInput } from './events/schemas';
import type { CreateWebhookInput, ListWebhookAttemptsInput, RedeliverWebhookInput, UpdateWebhookInput, WebhookKey } from './webhooks/schemas';
import type { WebhookAttemptView, WebhookView, WebhookWithSecretView } from './webhooks/view';
import { getNode } from './nodes/get';
import type { UnitDetailView } from './nodes/get-unit';
import type {
  ChangeTopologyInput,
  GetNodeInput as GetNodeInputType,
  GetNodeTimelineInput,
  GetUnitInput,
  ListNodesInput,
  RegisterNodeInput,
} from './nodes/schemas';
import { GetNodeInput } from './nodes/schemas';
import type { listTopologyHistory } from './nodes/topology-history';
import type { NodeTimeline } from './nodes/timeline';
import type { NodeListPage } from './nodes/list';
import type { NodeView } from './nodes/view';
import type { ListNotificationsInput, MarkNotificationReadInput } from './notifications/schemas';
import type { NotificationView } from './notifications/view';
import { Node, Unit } from './openapi/schemas';
import { operation, type OperationGroup } from './operation';
import { withoutOrgNames, type Named } from './orgs/internal';
import type { SearchOrgsQuery } from './orgs/schemas';
import type { OrgSummary } from './orgs/search';
import type { NodeAction, ReservationAction, VmAction } from './policy';
import type { ReservationCalendarPage } from './reservations/calendar';
import type { ReservationHistory } from './reservations/history';
import type { ReservationOffers } from './reservations/offers';
import type { ReclaimPlanView } from './reservations/reclaim-plan';
import type {
  CancelReservationInput,
  CreateReservationInput,
  GetReservationInput,
  ListNodeReservationsInput,
  ListReservationsInput,
  ReaffirmInput,
  ReclaimInput,
  ReclaimPlanInput,
  ReservationCalendarInput,
  ReleaseInput,
  UpdateReservationInput,
} from './reservations/schemas';
import type { ReclaimResult, Reservation } from './reservations/view';
import type { UnlockSignInInput } from './sign-ins/schemas';
import type { LockedSignInView, UnlockedSignInView } from './sign-ins/view';
import type { AppRouter } from './trpc/root';
import type { GetVmInput, ListNodeVmsInput, ListVmsInput, PlaceVmInput } from './vms/schemas';
import type { VmDetail } from './vms/detail';
import type { ReservationUtilisation } from './utilisation/reservation';
import type { UtilisationRollup } from './utilisation/rollup';
import type { GetReservationUtilisationInput, GetUtilisationRollupInput } from './utilisation/schemas';
import type { VmView } from './vms/view';

type IsAny<T> = 0 extends 1 & T ? true : false;
type KeysOf<T> = T extends unknown ? keyof T : never;
/** A and B accept the same values and name the same keys; never true of `any`. */
type Exact<A, B> =
  IsAny<A> extends true
    ? false
    : [A] extends [B]
      ? [B] extends [A]
        ? [KeysOf<A>] extends [KeysOf<B>]
          ? [KeysOf<B>] extends [KeysOf<A>]
            ? true
            : false
          : false
        : false
      : false;
type Assert<T extends true> = T;
type Page<T> = { items: T[]; nextCursor?: string };

// 1. A Unit schema for a verb that answers a NodeView: the declaration is no operation, and its group refuses it.
const unitForNode = {
  get: operation({
    verb: getNode,
    input: GetNodeInput,
    kind: 'query',
    scope: 'read',
    console: 'node.page',
    rest: {
      method: 'GET',
      path: '/v1/nodes/{nodeId}',
      operationId: 'getNode',
      tag: 'Nodes',
      summary: 'Get a node',
      response: Unit,
      responseDescription: 'The node.',
      errors: [],
    },
  }),
};
// @ts-expect-error -- the response schema does not describe what the verb returns
export const _refused = unitForNode satisfies OperationGroup;
// …and the right schema is accepted.
export const _accepted = {
  get: operation({
    ...unitForNode.get,
    verb: getNode,
    input: GetNodeInput,
    kind: 'query',
    scope: 'read',
    console: 'node.page',
    rest: {
      method: 'GET',
      path: '/v1/nodes/{nodeId}',
      operationId: 'getNode',
      tag: 'Nodes',
      summary: 'Get a node',
      response: Node,
      responseDescription: 'The node.',
      errors: [],
      answer: withoutOrgNames,
    },
  }),
} satisfies OperationGroup;

// 2. tRPC's inputs and outputs, procedure by procedure.
type In = inferRouterInputs<AppRouter>;
type Out = inferRouterOutputs<AppRouter>;
type Input<S extends z.ZodType> = z.input<S>;

export type _RouterChecks = [
  Assert<
    Exact<
      keyof In,
      'nodes' | 'reservations' | 'scheduledReclaims' | 'vms' | 'audit' | 'apiKeys' | 'orgs' | 'signIns' | 'utilisation' | 'events' | 'webhooks' | 'members'
    >
  >,
  Assert<Exact<keyof In['members'], 'list' | 'changeRole' | 'remove' | 'invite' | 'revokeInvite'>>,
  Assert<Exact<In['members']['list'], void | undefined>>,
  Assert<Exact<Out['members']['list'], MembersView>>,
  Assert<Exact<In['members']['changeRole'], Input<typeof ChangeMemberRoleInput>>>,
  Assert<Exact<Out['members']['changeRole'], { userId: string; role: MembershipRole }>>,
  Assert<Exact<In['members']['remove'], Input<typeof RemoveMemberInput>>>,
  Assert<Exact<Out['members']['remove'], { userId: string }>>,
  Assert<Exact<In['members']['invite'], Input<typeof InviteMemberInput>>>,
  Assert<Exact<Out['members']['invite'], CreatedInviteView>>,
  Assert<Exact<In['members']['revokeInvite'], Input<typeof RevokeInviteInput>>>,
  Assert<Exact<Out['members']['revokeInvite'], InviteView>>,
  Assert<Exact<keyof In['events'], 'list'>>,
  Assert<Exact<In['events']['list'], Input<typeof ListEventsInput>>>,
  Assert<Exact<Out['events']['list'], EventPage>>,
  Assert<Exact<keyof In['webhooks'], 'list' | 'create' | 'get' | 'update' | 'delete' | 'rotateSecret' | 'attempts' | 'redeliver'>>,
  Assert<Exact<In['webhooks']['create'], Input<typeof CreateWebhookInput>>>,
  Assert<Exact<Out['webhooks']['create'], WebhookWithSecretView>>,
  Assert<Exact<In['webhooks']['update'], Input<typeof UpdateWebhookInput>>>,
  Assert<Exact<Out['webhooks']['update'], WebhookView>>,
  Assert<Exact<In['webhooks']['get'], Input<typeof WebhookKey>>>,
  Assert<Exact<Out['webhooks']['list'], Page<WebhookView>>>,
  Assert<Exact<Out['webhooks']['delete'], WebhookView>>,
  Assert<Exact<Out['webhooks']['rotateSecret'], WebhookWithSecretView>>,
  Assert<Exact<In['webhooks']['attempts'], Input<typeof ListWebhookAttemptsInput>>>,
  Assert<Exact<Out['webhooks']['attempts'], Page<WebhookAttemptView>>>,
  Assert<Exact<In['webhooks']['redeliver'], Input<typeof RedeliverWebhookInput>>>,
  Assert<Exact<Out['webhooks']['redeliver'], WebhookAttemptView>>,
  Assert<Exact<keyof In['utilisation'], 'reservation' | 'rollup'>>,
  Assert<Exact<In['utilisation']['reservation'], GetReservationUtilisationInput>>,
  Assert<Exact<Out['utilisation']['reservation'], ReservationUtilisation>>,
  Assert<Exact<In['utilisation']['rollup'], GetUtilisationRollupInput>>,
  Assert<Exact<Out['utilisation']['rollup'], UtilisationRollup>>,
  Assert<Exact<keyof In['scheduledReclaims'], 'list' | 'create' | 'get' | 'reschedule' | 'cancel'>>,
  Assert<
    Exact<keyof In['nodes'], 'list' | 'register' | 'get' | 'unit' | 'changeTopology' | 'actions' | 'fleetActions' | 'owners' | 'topologyHistory' | 'timeline'>
  >,
  Assert<Exact<In['nodes']['list'], Input<typeof ListNodesInput>>>,
  Assert<Exact<Out['nodes']['owners'], { items: OrgSummary[] }>>,
  Assert<Exact<Out['nodes']['list'], NodeListPage>>,
  Assert<Exact<In['nodes']['register'], Input<typeof RegisterNodeInput>>>,
  Assert<Exact<Out['nodes']['register'], NodeView>>,
  Assert<Exact<In['nodes']['get'], Input<typeof GetNodeInputType>>>,
  Assert<Exact<Out['nodes']['get'], Named<NodeView>>>,
  Assert<Exact<In['nodes']['unit'], Input<typeof GetUnitInput>>>,
  Assert<Exact<Out['nodes']['unit'], UnitDetailView>>,
  Assert<Exact<In['nodes']['changeTopology'], Input<typeof ChangeTopologyInput>>>,
  Assert<Exact<Out['nodes']['changeTopology'], NodeView>>,
  Assert<Exact<Out['nodes']['actions'], NodeAction[]>>,
  Assert<Exact<In['nodes']['fleetActions'], void | undefined>>,
  Assert<Exact<Out['nodes']['fleetActions'], NodeAction[]>>,
  Assert<Exact<Out['nodes']['topologyHistory'], Awaited<ReturnType<typeof listTopologyHistory>>>>,
  Assert<Exact<In['nodes']['timeline'], Input<typeof GetNodeTimelineInput>>>,
  Assert<Exact<Out['nodes']['timeline'], Named<NodeTimeline>>>,

  Assert<
    Exact<
      keyof In['reservations'],
      'list' | 'calendar' | 'listForNode' | 'create' | 'get' | 'offers' | 'history' | 'update' | 'cancel' | 'release' | 'reclaim' | 'reclaimPlan' | 'reaffirm'
    >
  >,
  Assert<Exact<In['reservations']['list'], Input<typeof ListReservationsInput>>>,
  Assert<Exact<Out['reservations']['list'], Page<Reservation>>>,
  Assert<Exact<In['reservations']['calendar'], Input<typeof ReservationCalendarInput>>>,
  Assert<Exact<Out['reservations']['calendar'], ReservationCalendarPage>>,
  Assert<Exact<In['reservations']['listForNode'], Input<typeof ListNodeReservationsInput>>>,
  Assert<Exact<Out['reservations']['listForNode'], Page<{ reservation: Reservation; actions: ReservationAction[]; orgNames: Record<string, string> }>>>,
  Assert<Exact<In['reservations']['offers'], Input<typeof GetReservationInput>>>,
  Assert<Exact<Out['reservations']['offers'], ReservationOffers>>,
  Assert<Exact<In['reservations']['create'], Input<typeof CreateReservationInput>>>,
  Assert<Exact<Out['reservations']['create'], Reservation>>,
  Assert<Exact<In['reservations']['get'], Input<typeof GetReservationInput>>>,
  Assert<Exact<Out['reservations']['get'], Reservation>>,
  Assert<Exact<Out['reservations']['history'], ReservationHistory>>,
  Assert<Exact<In['reservations']['update'], Input<typeof UpdateReservationInput>>>,
  Assert<Exact<Out['reservations']['update'], Reservation>>,
  Assert<Exact<In['reservations']['cancel'], Input<typeof CancelReservationInput>>>,
  Assert<Exact<Out['reservations']['cancel'], Reservation>>,
  Assert<Exact<In['reservations']['release'], Input<typeof ReleaseInput>>>,
  Assert<Exact<Out['reservations']['release'], Reservation>>,
  Assert<Exact<In['reservations']['reclaim'], Input<typeof ReclaimInput>>>,
  Assert<Exact<Out['reservations']['reclaim'], ReclaimResult>>,
  Assert<Exact<In['reservations']['reclaimPlan'], Input<typeof ReclaimPlanInput>>>,
  Assert<Exact<Out['reservations']['reclaimPlan'], ReclaimPlanView>>,
  Assert<Exact<In['reservations']['reaffirm'], Input<typeof ReaffirmInput>>>,
  Assert<Exact<Out['reservations']['reaffirm'], Reservation>>,

  Assert<Exact<keyof In['vms'], 'list' | 'place' | 'get' | 'detail' | 'listForNode' | 'terminate'>>,
  Assert<Exact<In['vms']['detail'], Input<typeof GetVmInput>>>,
  Assert<Exact<Out['vms']['detail'], VmDetail>>,
  Assert<Exact<In['vms']['list'], Input<typeof ListVmsInput>>>,
  Assert<Exact<Out['vms']['list'], Page<Named<VmView>>>>,
  Assert<Exact<In['vms']['place'], Input<typeof PlaceVmInput>>>,
  Assert<Exact<Out['vms']['place'], VmView>>,
  Assert<Exact<In['vms']['get'], Input<typeof GetVmInput>>>,
  Assert<Exact<Out['vms']['get'], VmView>>,
  Assert<Exact<In['vms']['listForNode'], Input<typeof ListNodeVmsInput>>>,
  Assert<Exact<Out['vms']['listForNode'], Named<VmView & { actions: VmAction[] }>[]>>,
  Assert<Exact<In['vms']['terminate'], Input<typeof GetVmInput>>>,
  Assert<Exact<Out['vms']['terminate'], VmView>>,

  Assert<Exact<keyof In['audit'], 'list' | 'notifications' | 'unreadNotificationCount' | 'markNotificationRead'>>,
  Assert<Exact<In['audit']['list'], Input<typeof ListAuditInput>>>,
  Assert<Exact<Out['audit']['list'], Page<Named<AuditEventView>>>>,
  Assert<Exact<In['audit']['notifications'], Input<typeof ListNotificationsInput>>>,
  Assert<Exact<Out['audit']['notifications'], Page<NotificationView>>>,
  Assert<Exact<In['audit']['unreadNotificationCount'], void | undefined>>,
  Assert<Exact<Out['audit']['unreadNotificationCount'], { unread: number }>>,
  Assert<Exact<In['audit']['markNotificationRead'], Input<typeof MarkNotificationReadInput>>>,
  Assert<Exact<Out['audit']['markNotificationRead'], NotificationView>>,

  Assert<Exact<keyof In['apiKeys'], 'list' | 'create' | 'revoke'>>,
  Assert<Exact<In['apiKeys']['list'], Input<typeof ListApiKeysInput>>>,
  Assert<Exact<Out['apiKeys']['list'], Page<ApiKeyView>>>,
  Assert<Exact<In['apiKeys']['create'], Input<typeof CreateApiKeyInput>>>,
  Assert<Exact<Out['apiKeys']['create'], CreatedApiKeyView>>,
  Assert<Exact<In['apiKeys']['revoke'], Input<typeof RevokeApiKeyInput>>>,
  Assert<Exact<Out['apiKeys']['revoke'], ApiKeyView>>,

  Assert<Exact<In['orgs']['search'], Input<typeof SearchOrgsQuery>>>,
  Assert<Exact<Out['orgs']['search'], { items: OrgSummary[] }>>,

  Assert<Exact<keyof In['signIns'], 'locked' | 'unlock'>>,
  Assert<Exact<In['signIns']['locked'], void | undefined>>,
  Assert<Exact<Out['signIns']['locked'], { items: LockedSignInView[] }>>,
  Assert<Exact<In['signIns']['unlock'], Input<typeof UnlockSignInInput>>>,
  Assert<Exact<Out['signIns']['unlock'], UnlockedSignInView>>,
];
