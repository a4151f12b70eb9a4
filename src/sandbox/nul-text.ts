/**
 * node:sqlite of Node 22.13 and 22.15 stores a text holding a NUL character whole, but reads it
 * back cut at the NUL ("a\0b" comes back as "a"); Node 24's reads it whole. On such a Node the
 * sandbox refuses a body with NUL in its text (HTTP 400) rather than answer, later, with other text
 * than it was sent. Asked of SQLite once, and only when a body holds a NUL at all.
 */
import { DatabaseSync } from 'node:sqlite';

let cutsAtNul: boolean | undefined;

function sqliteCutsTextAtNul(): boolean {
  if (cutsAtNul === undefined) {
    const probe = new DatabaseSync(':memory:');
    const row = probe.prepare("SELECT 'a' || char(0) || 'b' AS text").get();
    probe.close();
    cutsAtNul = row?.text !== 'a\0b';
  }
  return cutsAtNul;
}

function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsNul);
  return false;
}

/** Why `body` (parsed from `text`) cannot be stored on this Node; undefined when it can. */
export function unstorableNul(text: string, body: unknown): string | undefined {
  if (!text.includes('\\u0000') || !holdsNul(body) || !sqliteCutsTextAtNul()) return undefined;
  return (
    `Text with a NUL character (\\u0000) cannot be kept by this sandbox: node:sqlite of the Node it ` +
    `runs on (${process.version}) reads it back cut at the NUL. Leave the character out, or run the sandbox on Node 24`
  );
}
