/**
 * The journal's file (./journal.ts keeps what it says): opened so that nothing but a regular
 * file of its own is read or written, and checked whole before a line of it is believed.
 */

import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import type { JournalKey } from './journal.js';

/** A journal that cannot be trusted: the run stops before anything is sent (exit 2). */
export class JournalUntrusted extends UsageError {}

const MAGIC = 'loanctl-bulk-journal 2 length=';
const LENGTH_DIGITS = 16;
const HEADER_BYTES = MAGIC.length + LENGTH_DIGITS + 1;
/** Row numbers and ids are whole numbers from 1, written without leading zeros. */
export const JOURNAL_LINE = /^(?:S ([1-9]\d*)|R ([1-9]\d*)|A ([1-9]\d*) ([1-9]\d*|-) ([\w.-]+|-) ([1-9]\d*|-))$/;

/** Opens the journal for reading and appending: never through a symbolic link, never a FIFO's blocking open. */
export async function openJournalFile(path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(
      path,
      constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      0o600,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw untrusted(path, 'it is a symbolic link');
    if (code === 'EISDIR') throw untrusted(path, 'it is a directory');
    throw error;
  }
  const stat = await handle.stat();
  if (!stat.isFile() || stat.nlink !== 1) {
    await handle.close();
    throw untrusted(
      path,
      stat.isFIFO() ? 'it is a FIFO' : stat.isFile() ? 'it has other hard links' : 'it is not a regular file',
    );
  }
  return handle;
}

/** The journal's lines if it is whole and this file's and server's, and where the next line goes. */
export function checkJournal(text: string, identity: string, path: string): { lines: string[]; end: number } {
  const journal = readJournalText(text, path);
  if (!sameInput(journal.identity, identity)) {
    throw untrusted(path, 'it belongs to another file or server (it was copied or edited)');
  }
  return journal;
}

/**
 * A journal's identity line and entries, whatever file it is of (`loanctl status` reads every
 * journal), if it is whole: a loanctl journal, as long as its header says, every line one of the three.
 */
export function readJournalText(text: string, path: string): { identity: string; lines: string[]; end: number } {
  const header = /^loanctl-bulk-journal 2 length=(\d{16})\n/.exec(text);
  if (!header) throw untrusted(path, 'it is not a loanctl bulk journal (or was written by an older loanctl)');
  const written = Number(header[1]);
  const bytes = Buffer.byteLength(text);
  if (bytes < written)
    throw untrusted(path, `it is shorter than was written (${bytes} of ${written} bytes): it was truncated`);
  const lines = text.slice(HEADER_BYTES).split('\n');
  const identity = lines[0] ?? '';
  // The last piece: '' after a final newline, or a line a crash cut off (never sent, see the top).
  const torn = lines.length > 1 ? (lines.pop() ?? '') : '';
  const entries = lines.slice(1);
  const bad = entries.findIndex((line) => !JOURNAL_LINE.test(line));
  if (bad >= 0) throw untrusted(path, `line ${bad + 3} is not a journal line`);
  return { identity, lines: entries, end: bytes - Buffer.byteLength(torn) };
}

/** One line of a journal (JOURNAL_LINE), as the fact it records. */
export type JournalEntry =
  | { fact: 'sent' | 'refused'; row: number }
  | { fact: 'acknowledged'; row: number; id?: number; reference?: string; userId?: number };

export function parseJournalLine(line: string): JournalEntry | undefined {
  const [, sent, refused, acked, idText, reference, userText] = JOURNAL_LINE.exec(line) ?? [];
  if (sent) return { fact: 'sent', row: Number(sent) };
  if (refused) return { fact: 'refused', row: Number(refused) };
  if (!acked) return undefined;
  return {
    fact: 'acknowledged',
    row: Number(acked),
    ...(idText === '-' ? {} : { id: Number(idText) }),
    ...(reference === '-' || reference === undefined ? {} : { reference }),
    ...(userText === '-' ? {} : { userId: Number(userText) }),
  };
}

/**
 * The same file content, kind, organisation and product. The path may differ (the file was moved),
 * and so may the base URL (a sandbox restarted on another port): neither makes another input.
 */
function sameInput(found: string | undefined, identity: string): boolean {
  const essence = (line: string) => {
    const { path: _path, baseUrl: _baseUrl, ...rest } = JSON.parse(line);
    return JSON.stringify(rest);
  };
  try {
    return essence(found ?? '') === essence(identity);
  } catch {
    return false;
  }
}

export function identityLine(key: JournalKey): string {
  const server = createHash('sha256').update(key.apiKey).digest('hex').slice(0, 16);
  return JSON.stringify({
    kind: key.kind,
    sha256: key.content,
    path: key.path,
    baseUrl: key.baseUrl,
    key: server,
    product: key.product ?? null,
  });
}

export function headerLine(length: number): string {
  return `${MAGIC}${String(length).padStart(LENGTH_DIGITS, '0')}\n`;
}

function untrusted(path: string, reason: string): JournalUntrusted {
  return new JournalUntrusted(
    `The bulk journal ${path} cannot be trusted: ${reason}. Nothing was sent.`,
    'Look at it, or run again with --ignore-journal to set it aside and take every row as new (a loan request an earlier run made would be made again).',
  );
}
