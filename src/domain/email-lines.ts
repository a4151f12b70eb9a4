/**
 * The lines of the local index of borrowers (src/config/user-index.ts) by e-mail, for a run that
 * looks up many e-mails (a bulk file's rows): a search of the whole text a row costs a scan of a
 * million lines a row, where a table costs one scan for the run and a few probes a row.
 *
 * A hash table of line starts (open addressing in an Int32Array, 4 bytes a slot, two slots a
 * line) over texts added one after another: the index's text, then what a walk reads, each part
 * kept as given. The parts are never joined into one string: joining them again each time a walk
 * has read more would copy the whole text each time (./borrower-walk.ts).
 */
const TAB = 9;
const NEWLINE = '\n';

export class EmailLines {
  private slots = new Int32Array(1024);
  private count = 0;
  private readonly parts: string[] = [];
  /** Where each part starts, counting the characters of the parts before it (a slot holds such a place). */
  private readonly starts: number[] = [];
  private size = 0;

  /** Adds the lines of `text` (each ending in a newline), after those added before. */
  add(text: string): void {
    this.parts.push(text);
    this.starts.push(this.size);
    for (let start = 0, end = text.indexOf(NEWLINE); end !== -1; start = end + 1, end = text.indexOf(NEWLINE, start)) {
      if (2 * (this.count + 1) > this.slots.length) this.grow();
      this.insert(text, start, this.size + start);
    }
    this.size += text.length;
  }

  /** The lines added whose e-mail field is `email` (src/config/user-index.ts `emailKey`). */
  lines(email: string): string[] {
    const quoted = JSON.stringify(email);
    const mask = this.slots.length - 1;
    const found: string[] = [];
    for (let at = hashOf(quoted, 0, quoted.length) & mask; this.slots[at] !== 0; at = (at + 1) & mask) {
      const [text, start] = this.lineAt((this.slots[at] as number) - 1);
      const field = emailFieldAt(text, start);
      if (text.startsWith(quoted, field) && text.charCodeAt(field + quoted.length) === TAB) {
        found.push(text.slice(start, text.indexOf(NEWLINE, start)));
      }
    }
    return found;
  }

  /** The line that starts at `place` (of all the parts): its part, and where in it. */
  private lineAt(place: number): [string, number] {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] as number) <= place) low = middle;
      else high = middle - 1;
    }
    return [this.parts[low] as string, place - (this.starts[low] as number)];
  }

  private insert(text: string, start: number, place: number): void {
    const field = emailFieldAt(text, start);
    const mask = this.slots.length - 1;
    let at = hashOf(text, field, text.indexOf('\t', field)) & mask;
    while (this.slots[at] !== 0) at = (at + 1) & mask;
    this.slots[at] = place + 1;
    this.count++;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.count = 0;
    for (const slot of old) {
      if (slot === 0) continue;
      const [text, start] = this.lineAt(slot - 1);
      this.insert(text, start, slot - 1);
    }
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
