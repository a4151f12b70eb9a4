/**
 * The lines of the local index of borrowers (src/config/user-index.ts) by e-mail, for a run that
 * looks up many e-mails (a bulk file's rows): a search of the whole text a row costs a scan of a
 * million lines a row, where a table costs one scan for the run and a few probes a row.
 *
 * A hash table of line starts (open addressing in an Int32Array, 4 bytes a slot, two slots a
 * line) over the lines up to `covered`. The index's text only grows while a run walks (a rebuild
 * makes a new table: ./borrower-index.ts), so each search first adds the lines after `covered`.
 */
const TAB = 9;
const NEWLINE = '\n';

export class EmailLines {
  private slots = new Int32Array(1024);
  private count = 0;
  private covered = 0;

  /** The lines of `body` (the text this table has seen, grown or not) whose e-mail field is `email`. */
  lines(body: string, email: string): string[] {
    this.extend(body);
    const quoted = JSON.stringify(email);
    const mask = this.slots.length - 1;
    const found: string[] = [];
    for (let at = hashOf(quoted, 0, quoted.length) & mask; this.slots[at] !== 0; at = (at + 1) & mask) {
      const start = (this.slots[at] as number) - 1;
      const field = emailFieldAt(body, start);
      if (body.startsWith(quoted, field) && body.charCodeAt(field + quoted.length) === TAB) {
        found.push(body.slice(start, body.indexOf(NEWLINE, start)));
      }
    }
    return found;
  }

  /** Adds the lines after those covered (each line ends in a newline). */
  private extend(body: string): void {
    if (body.length < this.covered) this.clear(); // not the text this table has seen: start again
    let start = this.covered;
    for (let end = body.indexOf(NEWLINE, start); end !== -1; end = body.indexOf(NEWLINE, start)) {
      if (2 * (this.count + 1) > this.slots.length) this.grow(body);
      this.insert(body, start);
      start = end + 1;
    }
    this.covered = start;
  }

  private insert(body: string, start: number): void {
    const field = emailFieldAt(body, start);
    const mask = this.slots.length - 1;
    let at = hashOf(body, field, body.indexOf('\t', field)) & mask;
    while (this.slots[at] !== 0) at = (at + 1) & mask;
    this.slots[at] = start + 1;
    this.count++;
  }

  private clear(): void {
    this.slots = new Int32Array(1024);
    this.count = 0;
    this.covered = 0;
  }

  private grow(body: string): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.count = 0;
    for (const slot of old) if (slot !== 0) this.insert(body, slot - 1);
  }
}

/** Where the e-mail field of the line at `start` begins: after its id and its page. */
function emailFieldAt(body: string, start: number): number {
  return body.indexOf('\t', body.indexOf('\t', start) + 1) + 1;
}

/** FNV-1a of `text` from `from` to `to`. */
function hashOf(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let at = from; at < to; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  return hash >>> 0;
}
