/**
 * An org id the API left out because the acting org may not learn it (docs/product.md §2: tenant
 * identity is private; an audit event's actor shows only to some): says so instead of a blank.
 */
export function OrgOrAnother({ orgId, why }: { orgId: string | undefined; why: string }) {
  if (orgId) return <span className="font-mono">{orgId}</span>;
  return (
    <span className="text-xs italic text-slate-400" title={why}>
      another org
    </span>
  );
}
