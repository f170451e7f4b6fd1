import { ExportDownload, readExportRefused } from '@/components/exports/export-download';
import { AuditTrail } from '@/components/audit/audit-trail';
import { auditFilterNames, auditQueryInput, filtersKey, readFilters, type SearchParams } from '@/components/queries';
import { ListAuditInput } from '@/server/audit/schemas';
import { prefetch, prefetched, trpc } from '@/app/(console)/server-reads';
import { readTimeZones } from '../time-zone';

export const metadata = { title: 'Audit trail · GPU Reservations' };

/** The audit trail page: the page its URL names (filters, `cursor`) is read here and rendered from these props. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const filters = readFilters(params, auditFilterNames);
  const { cursor } = readFilters(params, ['cursor']);
  const events = trpc.audit.list.queryOptions(auditQueryInput(filters, cursor));
  await prefetch(events);
  // A refused since or until is named as its filter is labelled, with the zone it is read in (issue 23).
  const { zone } = await readTimeZones();
  return (
    <>
      <AuditTrail
        key={filtersKey(filters)}
        filters={filters}
        actions={ListAuditInput.shape.action.unwrap().options}
        events={prefetched(events, zone)}
        cursor={cursor}
      />
      <ExportDownload list="audit" filters={filters} now={new Date()} refused={readExportRefused(params)} />
    </>
  );
}
