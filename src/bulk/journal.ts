/**
 * The bulk journal: what happened to each row of a file, so running the same file again skips
 * exactly the rows the API acknowledged before — and nothing else. Two identical rows are two
 * rows; a loan request made by hand with the same amount and purpose is not "this row".
 *
 * - One journal per file content (SHA-256 of the bytes), kind (users, loan requests), API key
 *   (a hash of it: one organisation; a reset sandbox has a new key, so a new journal) and default
 *   product. Changing the file (fixing a row) makes a new journal: `--failed` writes the rejected
 *   rows to their own file for that.
 * - Where: `$LOANCTL_STATE_DIR`, else `$XDG_STATE_HOME/loanctl`, else `~/.local/state/loanctl`,
 *   under `bulk/`. Deleting the directory (or one file) forgets the runs; nothing else reads it.
 * - Lines, appended: `S row` before a row is sent (written to the file before the request leaves),
 *   `A row id reference` once acknowledged (`-` for what the reply did not give), `R row` when it was refused (an error reply) or never reached the
 *   server. A row whose last line is `S` was sent with no answer: its outcome is unknown, and
 *   only such a row is looked up on the server when the file runs again.
 * - `--from -` (stdin) has no journal: its content is not known before it is read.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Env } from '../deps.js';
import { makeDir } from '../make-dir.js';

/** What the journal knows of a row from earlier runs. */
export type RowMemory =
  | { state: 'acknowledged'; id: number | undefined; reference: string | undefined }
  | { state: 'unknown' };

export interface JournalKey {
  kind: 'user' | 'loan';
  /** SHA-256 of the file's bytes (hex). */
  content: string;
  apiKey: string;
  product: number | undefined;
}

/** The directory of journals (see the top of this file). */
export function journalDir(env: Env): string {
  if (env.LOANCTL_STATE_DIR) return join(env.LOANCTL_STATE_DIR, 'bulk');
  const xdg = env.XDG_STATE_HOME;
  const base =
    xdg && isAbsolute(xdg) ? join(xdg, 'loanctl') : join(env.HOME || homedir(), '.local', 'state', 'loanctl');
  return join(base, 'bulk');
}

/** SHA-256 of a file, read as a stream (flat memory). */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export class Journal {
  private readonly memory = new Map<number, RowMemory>();
  private readonly ids = new Set<number>();
  private out: WriteStream | undefined;

  private constructor(readonly path: string) {}

  /** Opens (and reads) the journal of `key` in `dir`. */
  static async open(dir: string, key: JournalKey): Promise<Journal> {
    const target = createHash('sha256')
      .update(`${key.apiKey}\n${key.product ?? ''}`)
      .digest('hex')
      .slice(0, 16);
    const journal = new Journal(join(dir, `${key.kind}-${key.content.slice(0, 32)}-${target}.journal`));
    const text = await readFile(journal.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    for (const line of text.split('\n')) journal.remember(line);
    makeDir(dir);
    journal.out = createWriteStream(journal.path, { flags: 'a', mode: 0o600 });
    return journal;
  }

  private remember(line: string): void {
    const [mark, rowText, idText, reference] = line.split(' ');
    const row = Number(rowText);
    if (!Number.isSafeInteger(row)) return;
    if (mark === 'S') this.memory.set(row, { state: 'unknown' });
    else if (mark === 'R') this.memory.delete(row);
    else if (mark === 'A') {
      const id = idText && idText !== '-' ? Number(idText) : undefined;
      const known = reference && reference !== '-' ? reference : undefined;
      this.memory.set(row, { state: 'acknowledged', id, reference: known });
      if (id !== undefined) this.ids.add(id);
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

  acknowledged(row: number, id: number | undefined, reference: string | undefined): Promise<void> {
    if (id !== undefined) this.ids.add(id);
    // A reference is the API's own token (letters and digits); anything else is not kept.
    const ref = reference && /^[\w.-]+$/.test(reference) ? reference : '-';
    return this.append(`A ${row} ${id ?? '-'} ${ref}`);
  }

  refused(row: number): Promise<void> {
    return this.append(`R ${row}`);
  }

  /** Written to the file only: what earlier runs left is all `recall` needs (the map stays theirs). */
  private append(line: string): Promise<void> {
    const out = this.out;
    if (!out) return Promise.resolve();
    return new Promise((resolve, reject) => out.write(`${line}\n`, (error) => (error ? reject(error) : resolve())));
  }

  close(): Promise<void> {
    const out = this.out;
    this.out = undefined;
    return out ? new Promise((resolve) => out.end(() => resolve())) : Promise.resolve();
  }
}
