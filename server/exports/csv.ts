/**
 * CSV as exports write it (docs/product.md §5.8): RFC 4180 — comma-separated, CRLF line ends, a
 * field quoted when it holds a comma, a quote or a line break, quotes doubled — through
 * csv-stringify, whose `escape_formulas` applies OWASP's rule against formula injection: a cell
 * beginning with `=`, `+`, `-`, `@`, tab or CR gets a leading `'`, so a spreadsheet shows an org
 * id or a reason such as `=HYPERLINK(…)` as text instead of running it.
 */
import { stringify } from 'csv-stringify/sync';
import type { CsvColumn, CsvValue } from './declaration';

// csv-stringify quotes a field holding the record delimiter (CRLF) but not a lone CR or LF, which
// spreadsheets read as a line break all the same: quote those too.
const options = { escape_formulas: true, record_delimiter: 'windows', quoted_match: /[\r\n]/, eof: true } as const;

/** One cell's text: absent is empty, an array its items joined with a space, an object its JSON. */
function cellText(value: CsvValue): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.join(' ');
  return JSON.stringify(value);
}

/**
 * The CSV text of some list items, one record each, preceded by the header row when asked.
 * @param withHeader true for an export's first page only.
 */
export function toCsvRecords<Item>(columns: readonly CsvColumn<Item>[], items: readonly Item[], withHeader: boolean): string {
  const records = items.map((item) => columns.map((c) => cellText(c.value(item))));
  if (withHeader) records.unshift(columns.map((c) => c.name));
  return records.length === 0 ? '' : stringify(records, options);
}
