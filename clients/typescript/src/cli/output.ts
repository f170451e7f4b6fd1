/** How the CLI prints (docs/product.md §5.9): JSON with `--json`, aligned tables otherwise. */

export type Cell = string | number | boolean | readonly string[] | undefined;

/** A cell as text: lists joined, absent as a dash. */
const showCell = (v: Cell) => (v === undefined ? '—' : Array.isArray(v) ? v.join(',') || '—' : String(v));

/** Prints rows as a table with a header row, each column as wide as its widest cell (docs/product.md §5.9). */
export function printTable(columns: readonly string[], rows: readonly (readonly Cell[])[], write: (line: string) => void = console.log): void {
  const text = rows.map((r) => columns.map((_, i) => showCell(r[i])));
  const widths = columns.map((c, i) => Math.max(c.length, ...text.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  write(line(columns.map((c) => c.toUpperCase())));
  for (const r of text) write(line(r));
}

/** Prints named values one per line, for a single object (docs/product.md §5.9). */
export function printFields(fields: Record<string, Cell>, write: (line: string) => void = console.log): void {
  const width = Math.max(...Object.keys(fields).map((k) => k.length));
  for (const [k, v] of Object.entries(fields)) write(`${k.padEnd(width)}  ${showCell(v)}`);
}

/** Prints a value as indented JSON (docs/product.md §5.9, `--json`). */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}
