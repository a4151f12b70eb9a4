/**
 * RFC 4180 CSV, written here rather than taken from csv-stringify: quoting is the only part we
 * need (a dozen lines), and it keeps a dependency off the install and start-up path.
 * A cell is quoted when it holds a comma, a quote, CR/LF or leading/trailing spaces; quotes are
 * doubled. Values are written unchanged (numbers as numbers, timestamps as the API sent them).
 */

export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\n`;
}
