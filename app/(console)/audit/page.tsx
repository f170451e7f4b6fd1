import { AuditTrail } from '@/components/audit/audit-trail';
import { auditFilterNames, auditQueryInput, filtersKey, readFilters, type SearchParams } from '@/components/queries';
import { ListAuditInput } from '@/server/audit/schemas';
import { HydrateClient, prefetch, trpc } from '@/server/trpc/server';

export const metadata = { title: 'Audit trail · GPU Reservations' };

/** The audit trail page: its filters come from the URL, and their first page is fetched here (the first HTML holds the table). */
export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const filters = readFilters(await searchParams, auditFilterNames);
  await prefetch(trpc.audit.list.queryOptions(auditQueryInput(filters)));
  return (
    <HydrateClient>
      <AuditTrail key={filtersKey(filters)} filters={filters} actions={ListAuditInput.shape.action.unwrap().options} />
    </HydrateClient>
  );
}
