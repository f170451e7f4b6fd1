import { Fragment } from 'react';

/**
 * An id that may wrap only after a separator (`-`, `/`, `_`, `.`, `:`), never inside a word
 * ("acme-h100-" / "05", not "acme-h1" / "00-05"): a `<wbr>` after each separator, and no
 * `break-all` around it (issue 23). Only a part longer than a whole line (a generated
 * `res_<32 hex>`) breaks inside, as the last resort `break-words` is, rather than widen the page.
 */
export function Id({ id }: { id: string }) {
  return (
    <span className="break-words">
      {id.split(/(?<=[-/_.:])/).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}

/** Unit ids that wrap between ids, never inside one ("gpu-" / "5"). */
export function UnitIds({ ids }: { ids: readonly string[] }) {
  return ids.map((id, i) => (
    // The separator outside the unbreakable id: the line may break after its comma.
    <Fragment key={id}>
      <span className="whitespace-nowrap">{id}</span>
      {i < ids.length - 1 ? ', ' : ''}
    </Fragment>
  ));
}
