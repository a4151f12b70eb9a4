/**
 * The bulk files with rows left to do, read from the journals (./journal.ts) for `loanctl status`.
 * Reads only: no journal is locked, truncated or set aside. Each journal is checked as a run checks
 * it (./journal-file.ts); one that cannot be trusted is reported with why, never skipped.
 */
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { InputStream } from '../basics.js';
import { shellQuote } from '../shell-quote.js';
import { hashFile } from './journal.js';
import { openJournalFile, parseJournalLine, readJournalText } from './journal-file.js';
import { LOAN_FIELDS } from './loans.js';
import { openRowSource } from './source.js';
import { USER_FIELDS } from './users.js';

/** One journal, as `loanctl status` shows it. */
export interface PendingBulk {
  journal: string;
  /** The file and server its header names (null when the journal cannot be trusted). */
  kind: 'user' | 'loan' | null;
  file: string | null;
  server: string | null;
  acknowledged: number;
  refused: number;
  /** Sent with no answer: a re-run looks each up on the server before sending it again. */
  unknown: number;
  /** The file's rows, and those not acknowledged; null when the file is gone or changed. */
  rows: number | null;
  left: number | null;
  /** The command that goes on with the file; null when it cannot. */
  resume: string | null;
  /** Why the rows left cannot be counted, or why the journal cannot be trusted. */
  problem: string | null;
}

/** Every journal in `dir` that has rows left to do, or cannot be trusted. */
export async function pendingBulk(dir: string, stdin: InputStream): Promise<PendingBulk[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.journal')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const found: PendingBulk[] = [];
  for (const name of names) {
    const pending = await readPending(join(dir, name), stdin);
    if (pending.problem !== null || (pending.left ?? pending.refused + pending.unknown) > 0) found.push(pending);
  }
  return found;
}

async function readPending(path: string, stdin: InputStream): Promise<PendingBulk> {
  const blank = { journal: path, kind: null, file: null, server: null, acknowledged: 0, refused: 0, unknown: 0 };
  const none = { rows: null, left: null, resume: null };
  let identity: { kind: 'user' | 'loan'; sha256: string; path: string; baseUrl: string; product: number | null };
  let lines: string[];
  try {
    const handle = await openJournalFile(path);
    const text = await handle.readFile('utf8').finally(() => handle.close());
    const journal = readJournalText(text, path);
    lines = journal.lines;
    identity = parseIdentity(journal.identity, path);
  } catch (error) {
    return { ...blank, ...none, problem: (error as Error).message };
  }
  const counts = tally(lines);
  const known = { ...blank, kind: identity.kind, file: identity.path, server: identity.baseUrl, ...counts };
  const file = resolve(identity.path);
  const sha = await hashFile(file).catch(() => undefined);
  if (sha === undefined)
    return { ...known, ...none, problem: `${identity.path} is gone: its rows left cannot be counted.` };
  if (sha !== identity.sha256) {
    return { ...known, ...none, problem: `${identity.path} has changed since: a run of it now is a new file.` };
  }
  const rows = await countRows(file, identity.kind, stdin);
  const noun = identity.kind === 'user' ? 'user' : 'loan';
  // The product is the loan requests' (a user's journal records the default product too).
  const product = identity.kind === 'user' || identity.product === null ? '' : ` --product ${identity.product}`;
  return {
    ...known,
    rows,
    left: Math.max(0, rows - counts.acknowledged),
    resume: `loanctl ${noun} create --from ${shellQuote(identity.path)}${product}`,
    problem: null,
  };
}

/** Each row's last fact: acknowledged, refused, or sent with no answer (unknown). */
function tally(lines: readonly string[]): { acknowledged: number; refused: number; unknown: number } {
  const last = new Map<number, string>();
  for (const line of lines) {
    const entry = parseJournalLine(line);
    if (entry) last.set(entry.row, entry.fact);
  }
  const counts = { acknowledged: 0, refused: 0, unknown: 0 };
  for (const fact of last.values()) {
    if (fact === 'acknowledged') counts.acknowledged++;
    else if (fact === 'refused') counts.refused++;
    else counts.unknown++;
  }
  return counts;
}

function parseIdentity(
  line: string,
  path: string,
): {
  kind: 'user' | 'loan';
  sha256: string;
  path: string;
  baseUrl: string;
  product: number | null;
} {
  let value: Record<string, unknown> = {};
  try {
    value = JSON.parse(line) as Record<string, unknown>;
  } catch {
    // Checked below, with the same words.
  }
  const { kind, sha256, path: file, baseUrl, product } = value;
  if (
    (kind !== 'user' && kind !== 'loan') ||
    typeof sha256 !== 'string' ||
    typeof file !== 'string' ||
    typeof baseUrl !== 'string' ||
    (product !== null && typeof product !== 'number')
  ) {
    throw new Error(`The bulk journal ${path} cannot be trusted: its second line does not name a file and server.`);
  }
  return { kind, sha256, path: file, baseUrl, product };
}

async function countRows(file: string, kind: 'user' | 'loan', stdin: InputStream): Promise<number> {
  const source = await openRowSource(file, { stdin, fields: kind === 'user' ? USER_FIELDS : LOAN_FIELDS });
  let rows = 0;
  for await (const _row of source.rows) rows++;
  return rows;
}
