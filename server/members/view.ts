import type { MembershipRole } from '@/db/schema';

/** One member of the acting org, as its admins see it (docs/product.md §2 Members). */
export type MemberView = {
  userId: string;
  name: string;
  email: string;
  role: MembershipRole;
  /** The member's latest sign-in (any org: a sign-in is the person's), absent if none is kept. */
  lastSignInAt?: string;
};

/** An invitation still open (not accepted, revoked or lapsed); never its secret. */
export type InviteView = { id: string; role: MembershipRole; createdAt: string; expiresAt: string };

/** The members page: every member, then the open invitations, both in a stable order. */
export type MembersView = { members: MemberView[]; invites: InviteView[] };

/** An invitation as made: the link holding its secret, shown this once (docs/product.md §2 Members). */
export type CreatedInviteView = InviteView & { path: string };
