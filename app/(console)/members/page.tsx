import { MembersView } from '@/components/members/members-view';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';
import { getConsoleSession } from '@/server/auth/console-principal';

export const metadata = { title: 'Members · GPU Reservations' };

/** The members page (docs/product.md §2 Members): the acting org's members and open invitations, read here, rendered from props. */
export default async function MembersPage() {
  const members = trpc.members.list.queryOptions();
  await prefetch(members);
  // The layout read the session already (cached per request).
  const session = (await getConsoleSession())!;
  const acting = session.orgs.find((o) => o.id === session.principal.orgId)!;
  return <MembersView page={prefetched(members)} orgName={acting.name} meId={session.user.id} />;
}
