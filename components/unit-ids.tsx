/** Unit ids that wrap between ids, never inside one ("gpu-" / "5"). */
export function UnitIds({ ids }: { ids: readonly string[] }) {
  return ids.map((id, i) => (
    <span key={id} className="whitespace-nowrap">
      {id}
      {i < ids.length - 1 ? ', ' : ''}
    </span>
  ));
}
