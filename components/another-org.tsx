import { OrgIds } from './org-names';

/**
 * An org the caller sees — by its name where the server gave it (docs/product.md §9.1 q), the id
 * beside it — or, where the API left the id out because the acting org may not learn it (§2:
 * tenant identity is private; an audit event's actor shows only to some), says so instead of a blank.
 */
export function OrgOrAnother({ orgId, names, why }: { orgId: string | undefined; names?: Record<string, string>; why: string }) {
  if (orgId) return <OrgIds ids={[orgId]} names={names} />;
  return (
    <span className="text-xs italic text-ink-4" title={why}>
      another org
    </span>
  );
}
