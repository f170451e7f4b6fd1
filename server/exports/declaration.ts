/**
 * What a list operation declares to be exported (docs/product.md §5.8 Exports): the file's name,
 * what the `since`/`until` window means for its rows, and its CSV columns. A type module only:
 * server/operation.ts names it in `RestDeclaration.export`, and nothing here imports back.
 */

/** One CSV cell's value before encoding: arrays are joined with a space (no id holds one), objects written as JSON. */
export type CsvValue = string | number | boolean | null | undefined | readonly string[] | Record<string, unknown>;

/** One CSV column: its stable name (the header row) and the cell of one list item. */
export type CsvColumn<Item> = { name: string; value: (item: Item) => CsvValue };

/** A list route's export: answered to `Accept: text/csv` or `application/x-ndjson` (server/exports/answer.ts). */
export type ExportDeclaration<Item> = {
  /** The file name's stem: `audit` → `audit-20261201T000000Z-20261208T000000Z.csv`. */
  name: string;
  /** What `[since, until)` selects, in words, for the OpenAPI document. */
  window: string;
  /** The CSV columns, in order; NDJSON writes the JSON list's items unchanged. */
  columns: readonly CsvColumn<Item>[];
};

/** The item type of a list answer `{ items, nextCursor? }`. */
export type ListItem<Page> = Page extends { items: readonly (infer Item)[] } ? Item : never;
