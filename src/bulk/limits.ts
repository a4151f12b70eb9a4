/**
 * The most one row of a bulk file may hold: an NDJSON line, or a CSV record with all its cells
 * (docs/guide.md, "Limits of a bulk file"). A row of any operation is a few hundred characters;
 * past this, the file is not what the operator meant (a quote never closed, a stray binary file)
 * and the run stops at that line at once, instead of reading on into memory.
 */
export const MAX_ROW_CHARACTERS = 1_000_000;

/** The message of a row over the limit; `where` names it: `line 7`, `row 3 (from line 4)`. */
export function rowTooLong(name: string, where: string): string {
  return `${name}: ${where} is longer than ${MAX_ROW_CHARACTERS.toLocaleString('en-US')} characters, the most one row may hold (a quote never closed, or not a bulk file?). Fix or split that line; the rows before it were read`;
}
