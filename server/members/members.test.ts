/**
 * Members and invitations (docs/product.md §2 Members) on real PostgreSQL: the last admin stays
 * (409 last_admin), a changed role and a removal hold from the member's next request (the session
 * lookup), an invitation is stored hashed, works once and lapses after 7 days, and a scoped key
 * creates no key with a scope it lacks.
 */
import { insertUser } from '@/db/factories';
import { apiKeys, auditEvents, memberInvites } from '@/db/schema';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../api-keys/create';
import { resolveConsoleSession, startSession } from '../auth/sessions';
import type { DomainError } from '../errors';
import { useFreshScene } from '../testing/fresh-scene';
import { ctxFor, ORG, T0 } from '../testing/scene';
import { acceptInvite } from './accept';
import { changeMemberRole } from './change-role';
import { hashInviteSecret } from './internal';
import { inviteMember, revokeInvite } from './invite';
import { listMembers } from './list';
import { removeMember } from './remove';

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as DomainError,
  );

describe('members and invitations', () => {
  const scene = useFreshScene();
  const db = () => scene().db;
  const admin = () => ({ ...ctxFor(db(), ORG.owner, T0, 'console'), actor: { kind: 'user' as const, userId: 'u_admin' }, role: 'admin' as const });
  const people = async () => {
    await insertUser(db(), { id: 'u_admin', email: 'admin@x.example', name: 'Ada', passwordHash: 'x', orgIds: [ORG.owner] });
    await insertUser(db(), {
      id: 'u_view',
      email: 'view@x.example',
      name: 'Vic',
      passwordHash: 'x',
      orgIds: [ORG.owner, ORG.managing],
      membershipRole: 'viewer',
    });
  };

  it('keeps the last admin: neither demoted nor removed (409 last_admin); another admin first, then both work', async () => {
    await people();
    expect((await failure(changeMemberRole({ ctx: admin(), input: { userId: 'u_admin', role: 'member' } })))?.code).toBe('last_admin');
    expect((await failure(removeMember({ ctx: admin(), input: { userId: 'u_admin' } })))?.code).toBe('last_admin');
    expect(await changeMemberRole({ ctx: admin(), input: { userId: 'u_view', role: 'admin' } })).toEqual({ userId: 'u_view', role: 'admin' });
    expect(await changeMemberRole({ ctx: admin(), input: { userId: 'u_admin', role: 'member' } })).toEqual({ userId: 'u_admin', role: 'member' });
    const actions = await db()
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'member.role'));
    expect(actions.map((a) => a.details)).toEqual([
      { userId: 'u_view', from: 'viewer', to: 'admin' },
      { userId: 'u_admin', from: 'admin', to: 'member' },
    ]);
    // Another org's member is not found, like an unknown one.
    expect((await failure(removeMember({ ctx: admin(), input: { userId: 'u_nobody' } })))?.code).toBe('not_found');
  });

  it('a changed role holds from the next request; a removed member acts as that org no more, and their keys stay', async () => {
    await people();
    const session = await startSession(db(), 'u_view');
    const resolve = () => resolveConsoleSession(db(), { userId: 'u_view', sessionId: session }, ORG.owner);
    expect((await resolve())?.principal).toMatchObject({ orgId: ORG.owner, role: 'viewer' });
    expect((await resolve())?.grants).toEqual(['read']);
    await changeMemberRole({ ctx: admin(), input: { userId: 'u_view', role: 'member' } });
    expect((await resolve())?.principal.role).toBe('member');
    const key = await createApiKey({ ctx: { ...admin(), actor: { kind: 'user', userId: 'u_view' } }, input: { name: 'vic’s' } });
    await removeMember({ ctx: admin(), input: { userId: 'u_view' } });
    // Still signed in, acting as the org they still belong to.
    expect((await resolve())?.principal).toMatchObject({ orgId: ORG.managing, role: 'viewer' });
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row?.revokedAt).toBeNull();
    const members = await listMembers({ ctx: admin(), input: undefined });
    expect(members.members.map((m) => m.userId)).toEqual(['u_admin']);
  });

  it('an invitation is stored hashed, shown once, works once, for 7 days; a withdrawn one not at all', async () => {
    await people();
    await insertUser(db(), { id: 'u_new', email: 'new@x.example', name: 'Neo', passwordHash: 'x', orgIds: [] });
    // Invitations lapse on the database's clock: made now.
    const now = new Date();
    const made = await inviteMember({ ctx: { ...admin(), now }, input: { role: 'viewer' } });
    const secret = made.path.split('/').at(-1)!;
    expect(made.expiresAt).toBe(new Date(now.getTime() + 7 * 86_400_000).toISOString());
    const [row] = await db().select().from(memberInvites).where(eq(memberInvites.id, made.id));
    expect(row?.secretHash).toBe(hashInviteSecret(secret));
    const dump = await db().execute<{ t: string }>(sql`select t::text as t from member_invites t`);
    expect(JSON.stringify(dump)).not.toContain(secret);
    expect((await listMembers({ ctx: { ...admin(), now }, input: undefined })).invites.map((i) => i.id)).toEqual([made.id]);

    expect(await acceptInvite(db(), { userId: 'u_new', secret: 'x'.repeat(43) })).toEqual({ outcome: 'invalid' });
    expect(await acceptInvite(db(), { userId: 'u_view', secret })).toEqual({ outcome: 'already_member', orgId: ORG.owner });
    expect(await acceptInvite(db(), { userId: 'u_new', secret })).toEqual({ outcome: 'joined', orgId: ORG.owner });
    expect(await acceptInvite(db(), { userId: 'u_admin', secret })).toEqual({ outcome: 'invalid' });
    const members = await listMembers({ ctx: { ...admin(), now }, input: undefined });
    expect(members.members.find((m) => m.userId === 'u_new')?.role).toBe('viewer');
    expect(members.invites).toEqual([]);

    const withdrawn = await inviteMember({ ctx: { ...admin(), now }, input: { role: 'member' } });
    await revokeInvite({ ctx: admin(), input: { inviteId: withdrawn.id } });
    expect(await acceptInvite(db(), { userId: 'u_admin', secret: withdrawn.path.split('/').at(-1)! })).toEqual({ outcome: 'invalid' });

    // Lapsed: made 8 days before the database's clock.
    const old = await inviteMember({ ctx: { ...admin(), now: new Date(Date.now() - 8 * 86_400_000) }, input: { role: 'member' } });
    expect(await acceptInvite(db(), { userId: 'u_admin', secret: old.path.split('/').at(-1)! })).toEqual({ outcome: 'invalid' });
    const audited = await db()
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(sql`${auditEvents.action} like 'member.%'`);
    expect(audited.map((a) => a.action).sort()).toEqual(['member.invite', 'member.invite', 'member.invite', 'member.invite', 'member.join']);
  });

  it('no key creates a key with a scope it lacks; it may give what it holds', async () => {
    const ctx = { ...ctxFor(db(), ORG.owner, T0), scopes: ['read', 'keys:manage'] as const };
    const refused = await failure(createApiKey({ ctx: { ...ctx, scopes: [...ctx.scopes] }, input: { name: 'wider', scopes: ['read', 'vms:write'] } }));
    expect(refused?.code).toBe('insufficient_scope');
    expect(refused?.extras.scope).toBe('vms:write');
    const made = await createApiKey({ ctx: { ...ctx, scopes: [...ctx.scopes] }, input: { name: 'same' } });
    expect(made.scopes).toEqual(['read', 'keys:manage']);
  });
});
