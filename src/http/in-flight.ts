/**
 * The requests of a pool not yet settled, each with what ends it at once (./transport.ts). An
 * array, not a Map: a Map added to and deleted from on every request rehashes its table every few
 * requests, and V8 keeps each outdated table pointing at the next (for its iterators), so once one
 * of them was in the old generation every later one, and every request it had held, outlived the
 * young generation: ~4 KB a row promoted, most of the garbage collector's time in a bulk run
 * (bench/README.md, "Bulk share", round four). A settled entry's slot takes the last entry.
 */
export class InFlight<Entry> {
  private readonly entries: Entry[] = [];

  add(entry: Entry): void {
    this.entries.push(entry);
  }

  remove(entry: Entry): void {
    const index = this.entries.indexOf(entry);
    if (index === -1) return; // removed already: the last entry must not take a slot that is not there
    const last = this.entries.pop();
    if (last !== undefined && index < this.entries.length) this.entries[index] = last;
  }

  /** The entries now (a copy: settling one removes it). */
  all(): Entry[] {
    return [...this.entries];
  }
}
