import type { Tx } from '@/db/client';
import { memberships, type MembershipRole } from '@/db/schema';
import { and, count, eq, type SQL } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../context';
import { DomainError, notFound } from '../errors';
import { lockOrg } from '../orgs/internal';
import { membersVisibleTo } from '../policy';

/** How long an invitation link works (docs/product.md §2 Members). */
export const INVITE_TTL_DAYS = 7;

/** The console path an invitation link opens; the secret is its last segment. */
export const INVITE_PATH = '/invite';

/** SHA-256 of an invitation secret, hex: like API keys', 256 random bits need no stretching. */
export function hashInviteSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new invitation secret: 256 random bits, base64url. */
export function newInviteSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Locks the acting org (its row, the lock every change of its members takes first, so concurrent
 * changes are serialised) and reads its member `userId` under it.
 * @returns the member's role, or null when `userId` is not a member of the org.
 */
export async function lockMember(tx: Tx, principal: Principal, userId: string): Promise<{ role: MembershipRole } | null> {
  await lockOrg(tx, principal.orgId);
  const [row] = await tx.select({ role: memberships.role }).from(memberships).where(membershipOf(principal, userId));
  return row ?? null;
}

/**
 * Refuses a change that would leave the org without an admin (docs/product.md §2 Members: 409
 * `last_admin`), counted under the org lock that `lockMember` took.
 * @throws DomainError last_admin
 */
export async function assertNotLastAdmin(tx: Tx, principal: Principal, what: string): Promise<void> {
  const [admins] = await tx
    .select({ n: count() })
    .from(memberships)
    .where(and(membersVisibleTo(principal), eq(memberships.role, 'admin')));
  if ((admins?.n ?? 0) <= 1) throw new DomainError('last_admin', `This is the org's last admin, who cannot be ${what}: make another member an admin first.`);
}

/** SQL: the acting org's membership of `userId` (`membersVisibleTo`, one row). */
export function membershipOf(principal: Principal, userId: string): SQL {
  return and(membersVisibleTo(principal), eq(memberships.userId, userId))!;
}

/**
 * `lockMember`, refusing a user who is not a member of the acting org as unknown.
 * @returns the member's role.
 * @throws DomainError not_found
 */
export async function openMember(tx: Tx, principal: Principal, userId: string): Promise<MembershipRole> {
  const member = await lockMember(tx, principal, userId);
  if (!member) throw notFound(`Member "${userId}"`);
  return member.role;
}
