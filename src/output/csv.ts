/**
 * RFC 4180 CSV, written here rather than taken from csv-stringify: quoting is the only part we
 * need (a dozen lines), and it keeps a dependency off the install and start-up path.
 * A cell is quoted when it holds a comma, a quote, CR/LF or leading/trailing spaces; quotes are
 * doubled. Values are written as the API sent them (numbers as numbers, timestamps as sent),
 * except an unset timestamp, which is an empty cell (a spreadsheet would read the API's
 * `0001-01-01T00:00:00Z` as a date two thousand years ago), and text that a spreadsheet would run
 * as a formula (below).
 */
import { ISO_DATE_TIME, isSetTimestamp } from '../contract/vocabulary.js';
import { escapeControl } from './escape.js';

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' && !isSetTimestamp(value) && ISO_DATE_TIME.test(value)) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : neutralised(String(value));
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Text a spreadsheet would run as a formula (`=HYPERLINK(…)`, `@SUM(…)`, `+cmd|…`, `-2+3`, or one
 * behind a tab or CR) gets a leading `'`, which spreadsheets show as text (OWASP's advice for CSV
 * injection). A plain signed number (`+2348012345678`, `-5`) is left as it is: it runs nothing.
 */
function neutralised(text: string): string {
  if (!/^[=+\-@\t\r]/.test(text) || /^[+-]\d+(\.\d+)?$/.test(text)) return text;
  return `'${text}`;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\n`;
}

/**
 * The header row. Its names may be keys the server chose: their control characters are escaped
 * (`\x1b`), so a CSV printed to a terminal or opened in a viewer cannot run an escape sequence
 * from a field name. The values below stay as the API sent them.
 */
export function csvHeader(names: readonly string[]): string {
  return csvRow(names.map(escapeControl));
}
