/**
 * The bulk journal: what happened to each row of a file, so running the same file again sends
 * each row that is not on the server, and none twice. Two identical rows are two rows; a loan
 * request made by hand with the same amount and purpose is not "this row".
 *
 * - One journal per file content (SHA-256 of the bytes), kind (users, loan requests), organisation
 *   (a hash of the API key) and default product; the file's path and the base URL are recorded. Changing the file (fixing a row) makes a
 *   new journal: `--failed` writes the rejected rows to their own file for that.
 * - Where: `$LOANCTL_STATE_DIR`, else `$XDG_STATE_HOME/loanctl`, else `~/.local/state/loanctl`,
 *   under `bulk/`. Deleting the directory (or one file) forgets the runs; nothing else reads it.
 * - The file: a header line with the length written so far (a fixed-width field, brought up to
 *   date every LENGTH_EVERY_MS while appending, and at the end), a line naming the file and server it belongs to (JSON), then one line a fact:
 *   `S row` before a row is sent (with the operating system before the request leaves),
 *   `A row id reference user_id` once acknowledged (`-` for what the reply did not give),
 *   `R row` when it was refused or never reached the server. A row whose last line is `S` was
 *   sent with no answer: its outcome is unknown.
 * - Nothing in it is believed unchecked. It is opened without following a symbolic link, and
 *   must be a regular file with one link; its header must name this file and this server; it must
 *   be as long as its header says (shorter: it was truncated); every complete line must be one of
 *   the three. Anything else stops the run with one line (JournalUntrusted), or with
 *   `--ignore-journal` the file is set aside and the run starts afresh. Only a last line cut off
 *   by a crash is dropped: its write had not finished, so its request was never sent.
 * - Appends are grouped: the lines queued in one turn of the event loop go in one synchronous
 *   write at the end of that turn (`setImmediate`), and a row awaits only its `S` line (the bulk
 *   share of docs/performance.md#goals).
 * - One run of a file at a time: the journal is taken with a lock file (./journal-lock.ts).
 * - `--from -` (stdin) has no journal: its content is not known before it is read.
 */
import { createHash } from 'node:crypto';
import { createReadStream, writeSync } from 'node:fs';
import { type FileHandle, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Env } from '../basics.js';
import { stateDir } from '../config/state-dir.js';
import { localFileError } from '../errors.js';
import { isId } from '../http/payload.js';
import { makeDir } from '../make-dir.js';
import {
  checkJournal,
  headerLine,
  identityLine,
  JOURNAL_LINE,
  JournalUntrusted,
  openJournalFile,
  parseJournalLine,
} from './journal-file.js';
import { lockJournal } from './journal-lock.js';
import type { BulkKind } from './kinds.js';

export { JournalUntrusted } from './journal-file.js';

/** What the journal knows of a row from earlier runs. */
export type RowMemory =
  | { state: 'acknowledged'; id: number | undefined; reference: string | undefined; userId: number | undefined }
  | { state: 'unknown' };

/** What a journal belongs to: the input file and the server; written in its second line. */
export interface JournalKey {
  kind: BulkKind;
  /** SHA-256 of the file's bytes (hex). */
  content: string;
  /** The file as given (for people reading the journal; the content is what identifies it). */
  path: string;
  baseUrl: string;
  apiKey: string;
  product: number | undefined;
}

/** The directory of journals (see the top of this file). */
export function journalDir(env: Env): string {
  return join(stateDir(env), 'bulk');
}

/** SHA-256 of a file, read as a stream (flat memory). */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * How often the header's length is brought up to date while a run appends: each write of it was
 * as costly as the lines themselves. What a crash leaves past the last one is believed as any line
 * (a file longer than its header says is normal); a file cut shorter than it is not.
 */
const LENGTH_EVERY_MS = 250;

export class Journal {
  private readonly memory = new Map<number, RowMemory>();
  private readonly ids = new Set<number>();
  /** Lines waiting for the write at the end of this turn, and that write's promise. */
  private queued: string[] = [];
  private turn: Promise<void> | undefined;
  private lengthWrittenAt = 0;
  /** Gives up the journal's lock (./journal-lock.ts), once it is closed. */
  private release: () => Promise<void> = async () => {};

  private constructor(
    readonly path: string,
    private handle: FileHandle | undefined,
    private end: number,
  ) {}

  /**
   * Opens (and reads) the journal of `key` in `dir`. Throws JournalUntrusted for a journal it
   * cannot believe, unless `ignore` (`--ignore-journal`): then that file is set aside (renamed,
   * `setAside` told where) and a new one started.
   */
  static async open(
    dir: string,
    key: JournalKey,
    options: { ignore?: boolean; setAside?: (path: string, reason: string) => void } = {},
  ): Promise<Journal> {
    makeDir(dir, 0o700);
    // Not the base URL: a sandbox back on another port is the same server, and what the journal
    // says of it is checked there anyway (./remembered.ts).
    const target = createHash('sha256')
      .update(`${key.apiKey}\n${key.product ?? ''}`)
      .digest('hex')
      .slice(0, 16);
    const path = join(dir, `${key.kind}-${key.content.slice(0, 32)}-${target}.journal`);
    const release = await lockJournal(path);
    try {
      const journal = await Journal.readOrSetAside(path, key, options);
      journal.release = release;
      return journal;
    } catch (error) {
      await release();
      throw error;
    }
  }

  private static async readOrSetAside(
    path: string,
    key: JournalKey,
    options: { ignore?: boolean; setAside?: (path: string, reason: string) => void },
  ): Promise<Journal> {
    try {
      return await Journal.read(path, key);
    } catch (error) {
      if (!(error instanceof JournalUntrusted) || !options.ignore) throw error;
      const aside = `${path}.set-aside-${Date.now()}`;
      await rename(path, aside).catch((failure: Error) => {
        throw new JournalUntrusted(`Cannot set aside the bulk journal ${path}: ${failure.message}.`);
      });
      options.setAside?.(aside, error.message);
      return Journal.read(path, key);
    }
  }

  private static async read(path: string, key: JournalKey): Promise<Journal> {
    const handle = await openJournalFile(path);
    try {
      const text = (await handle.readFile()).toString('utf8');
      const identity = identityLine(key);
      if (text === '') {
        const journal = new Journal(path, handle, 0);
        journal.end = journal.writeAt(0, `${headerLine(0)}${identity}\n`);
        journal.writeLength();
        return journal;
      }
      const { lines, end } = checkJournal(text, identity, path);
      // A line a crash cut off is dropped from the file too, so the next line starts clean.
      if (end < Buffer.byteLength(text)) await handle.truncate(end);
      const journal = new Journal(path, handle, end);
      for (const line of lines) journal.remember(line);
      return journal;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  private remember(line: string): void {
    const entry = parseJournalLine(line);
    if (entry?.fact === 'sent') this.memory.set(entry.row, { state: 'unknown' });
    else if (entry?.fact === 'refused') this.memory.delete(entry.row);
    else if (entry?.fact === 'acknowledged') {
      this.memory.set(entry.row, {
        state: 'acknowledged',
        id: entry.id,
        reference: entry.reference,
        userId: entry.userId,
      });
      if (entry.id !== undefined) this.ids.add(entry.id);
    }
  }

  /** What earlier runs left for `row`; undefined: never sent, or refused. */
  recall(row: number): RowMemory | undefined {
    return this.memory.get(row);
  }

  /** Whether a record id is some row's, acknowledged (so an unknown row cannot claim it). */
  claims(id: number): boolean {
    return this.ids.has(id);
  }

  /** Resolves once the line is with the operating system, so it outlives a crash of loanctl. */
  sending(row: number): Promise<void> {
    return this.append(`S ${row}`);
  }

  /**
   * Need not be awaited before the row's result: a row whose `A` is lost in a crash is `S`,
   * unknown, and looked up on the server when the file runs again.
   */
  acknowledged(
    row: number,
    outcome: { id?: number | undefined; reference?: string | undefined; user_id?: number | undefined },
  ): Promise<void> {
    // Only what reads back as it was written is kept: an id that is not one (the client refuses
    // such replies, src/http/payload.ts) or a reference that is not the API's token (letters and
    // digits) is written as `-`, never as a line that would stop every later run of the file.
    const id = isId(outcome.id) ? outcome.id : undefined;
    if (id !== undefined) this.ids.add(id);
    const ref = outcome.reference && /^[\w.-]+$/.test(outcome.reference) ? outcome.reference : '-';
    return this.append(`A ${row} ${id ?? '-'} ${ref} ${isId(outcome.user_id) ? outcome.user_id : '-'}`);
  }

  refused(row: number): Promise<void> {
    return this.append(`R ${row}`);
  }

  /**
   * Queues `line` for the write at the end of this turn of the event loop: every row that reaches
   * the journal in one turn shares one write (at concurrency 8 the replies that arrive together
   * start their next rows together). Synchronous, because a write to the page cache costs a few
   * microseconds where a write through the thread pool (fs/promises) cost ~25 of CPU and a
   * context switch each, the largest single cost of a bulk run (docs/performance.md#goals).
   */
  private append(line: string): Promise<void> {
    if (!this.handle) return Promise.resolve();
    // The same check as reading it back (./journal-file.ts): a line it would refuse is not written.
    if (!JOURNAL_LINE.test(line)) throw new Error(`not a journal line: ${line}`);
    this.queued.push(line);
    this.turn ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.turn = undefined;
        try {
          this.writeQueued();
          resolve();
        } catch (error) {
          reject(error);
        }
      });
    });
    return this.turn;
  }

  private writeQueued(): void {
    const text = `${this.queued.join('\n')}\n`;
    this.queued = [];
    this.end += this.writeAt(this.end, text);
    if (Date.now() - this.lengthWrittenAt >= LENGTH_EVERY_MS) this.writeLength();
  }

  /** The length written so far into the header, which is how a truncated journal shows. */
  private writeLength(): void {
    this.lengthWrittenAt = Date.now();
    this.writeAt(0, headerLine(this.end));
  }

  /** Writes `text` whole at `position`; returns its length in bytes. */
  private writeAt(position: number, text: string): number {
    const fd = (this.handle as FileHandle).fd;
    const body = Buffer.from(text);
    try {
      for (let offset = 0; offset < body.length; ) {
        offset += writeSync(fd, body, offset, body.length - offset, position + offset);
      }
    } catch (error) {
      throw localFileError(error, this.path, 'the bulk journal');
    }
    return body.length;
  }

  async close(): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    while (this.turn) await this.turn.catch(() => {});
    try {
      this.writeLength();
    } catch {
      // As before: the lines are written; a header left behind says less than was written, which is believed.
    }
    this.handle = undefined;
    await handle.close();
    await this.release();
  }
}
