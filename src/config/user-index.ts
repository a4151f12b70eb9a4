/**
 * The local index of borrowers, one per profile and base URL in the cache directory
 * (`$LOANCTL_CONFIG_DIR/cache` when that is set, else `$XDG_CACHE_HOME/loanctl`, else
 * `~/.cache/loanctl`): `borrowers-prod-3f2a9c1d0b4e.idx`, and beside it the references loanctl saw,
 * `references-prod-3f2a9c1d0b4e.tsv`. src/domain/borrower-index.ts walks the user list into it and
 * keeps it up to date; this file only reads, checks and writes the files.
 *
 * The index: one line a borrower, `ID<TAB>PAGE<TAB>"email"<TAB>"phone"<TAB>"first"<TAB>"last"`
 * (each text JSON-quoted, so no tab or newline is ever inside a field and a look-up is one search
 * of the text), then a last line `#{…}` saying where the walk stopped, how many lines there are and
 * the SHA-256 of the lines. A file whose last line, count or hash does not match is not believed:
 * the caller rebuilds it from the server, saying so in one line. Every entry is also checked
 * against the server before it is shown. Deleting the files (`loanctl cache clear`) costs nothing
 * but a slower next look-up.
 *
 * The references: one line each, `"REFERENCE"<TAB>"email"<TAB>CHECK`, appended as they are seen;
 * CHECK is the first 16 hex digits of the SHA-256 of the two. A line that fails it stops the
 * command with one line: a reference is never taken from a line loanctl did not write.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, openSync, readdirSync, renameSync, rmSync, writevSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Env } from '../basics.js';
import { UsageError } from '../errors.js';
import { makeDir } from '../make-dir.js';
import { readRegularBytes, readRegularFile, withFileLock } from './locked-write.js';

/** The index file's format: a file of another format is rebuilt. */
const INDEX_FORMAT = 'loanctl-borrowers/1';
const PREFIXES = ['borrowers-', 'references-', 'users-'];

/** Where the last walk of the user list (in page order, without a window) stopped. */
export interface WalkMark {
  /** The last page that had users. */
  lastPage: number;
  /** The first id and the number of users on it, to tell whether the list is still the one walked. */
  lastPageFirstId: number;
  lastPageSize: number;
}

interface IndexTrailer extends WalkMark {
  format: string;
  baseUrl: string;
  lines: number;
  sha256: string;
}

/** The index as read: its lines' text (each ending in a newline) and where the walk stopped. */
export interface IndexText {
  body: string;
  /** How many borrowers it holds. */
  lines: number;
  mark: WalkMark;
}

/** `$LOANCTL_CONFIG_DIR/cache` when that is set (everything of loanctl in one place), else the XDG cache dir. */
export function cacheDir(env: Env): string {
  if (env.LOANCTL_CONFIG_DIR) return join(env.LOANCTL_CONFIG_DIR, 'cache');
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'loanctl');
  return join(env.HOME || homedir(), '.cache', 'loanctl');
}

export interface IndexPaths {
  index: string;
  references: string;
  baseUrl: string;
}

/**
 * The files of a profile at a base URL. Without a profile (the key in LOANCTL_API_KEY), of that
 * key: two organisations' keys on one sandbox are two lists. Only a hash of the key is in the name.
 */
export function indexPaths(env: Env, profile: string | undefined, baseUrl: string): IndexPaths {
  const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);
  const site = hash(baseUrl);
  const name = `${profile ?? `env-${hash(env.LOANCTL_API_KEY ?? '')}`}-${site}`;
  return {
    index: join(cacheDir(env), `borrowers-${name}.idx`),
    references: join(cacheDir(env), `references-${name}.tsv`),
    baseUrl,
  };
}

/** An e-mail as the index keeps it and a look-up asks for it: lower case (the API's e-mails are in any case). */
export function emailKey(email: unknown): string {
  return String(email).toLowerCase();
}

/** One borrower's line. */
export function indexLine(id: number, page: number, email: string, phone: string, first: string, last: string): string {
  const q = JSON.stringify;
  return `${id}\t${page}\t${q(email)}\t${q(phone)}\t${q(first)}\t${q(last)}\n`;
}

export interface IndexEntry {
  id: number;
  page: number;
  email: string;
  phone: string;
  firstname: string;
  lastname: string;
}

/** A line as written by indexLine (without its newline). */
export function parseIndexLine(line: string): IndexEntry {
  const [id, page, email, phone, firstname, lastname] = line.split('\t');
  return {
    id: Number(id),
    page: Number(page),
    email: JSON.parse(email ?? '""'),
    phone: JSON.parse(phone ?? '""'),
    firstname: JSON.parse(firstname ?? '""'),
    lastname: JSON.parse(lastname ?? '""'),
  };
}

/** The last `count` lines of the index's text, parsed (fewer when it has fewer). */
export function lastEntries(body: string, count: number): IndexEntry[] {
  const entries: IndexEntry[] = [];
  let end = body.length - 1; // the newline that ends the line
  while (entries.length < count && end > 0) {
    const start = body.lastIndexOf('\n', end - 1) + 1;
    entries.unshift(parseIndexLine(body.slice(start, end)));
    end = start - 1;
  }
  return entries;
}

/** Why the index at `path` is not believed (undefined: no file, or read whole). */
type IndexRead = { text: IndexText } | { missing: true } | { untrusted: string };

/** The index, checked: its trailer, its line count and its hash. */
export function readIndex(paths: IndexPaths): IndexRead {
  const bytes = readRegularBytes(paths.index, 'the borrower index');
  if (bytes === undefined) return { missing: true };
  // The closing line: after the last newline but the final one.
  const trailerAt = bytes.lastIndexOf('\n#', bytes.length - 2) + 1;
  if (bytes.at(-1) !== NEWLINE || (trailerAt === 0 && bytes[0] !== HASH_SIGN)) {
    return { untrusted: 'it has no closing line' };
  }
  let trailer: IndexTrailer;
  try {
    trailer = JSON.parse(bytes.toString('utf8', trailerAt + 1));
  } catch {
    return { untrusted: 'its closing line is not readable' };
  }
  if (trailer.format !== INDEX_FORMAT) return { untrusted: `it is not of format ${INDEX_FORMAT}` };
  if (trailer.baseUrl !== paths.baseUrl) return { untrusted: 'it was made for another base URL' };
  const lines = bytes.subarray(0, trailerAt);
  if (createHash('sha256').update(lines).digest('hex') !== trailer.sha256)
    return { untrusted: 'its hash does not match' };
  if (countNewlines(lines) !== trailer.lines) return { untrusted: 'its line count does not match' };
  const { lastPage, lastPageFirstId, lastPageSize } = trailer;
  if (![lastPage, lastPageFirstId, lastPageSize].every(Number.isSafeInteger)) {
    return { untrusted: 'its walk mark is not whole numbers' };
  }
  const mark = { lastPage, lastPageFirstId, lastPageSize };
  return { text: { body: lines.toString('utf8'), lines: trailer.lines, mark } };
}

const NEWLINE = 0x0a;
const HASH_SIGN = 0x23;

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

/**
 * Replaces the index with these lines and mark (atomically, under the file's lock). The lines may
 * come in parts (a walk's pages), written one after another.
 */
export function writeIndex(paths: IndexPaths, body: string | Buffer | readonly Buffer[], mark: WalkMark): void {
  const parts = typeof body === 'string' ? [Buffer.from(body)] : Buffer.isBuffer(body) ? [body] : body;
  const hash = createHash('sha256');
  let lines = 0;
  for (const part of parts) {
    hash.update(part);
    lines += countNewlines(part);
  }
  const trailer: IndexTrailer = {
    format: INDEX_FORMAT,
    baseUrl: paths.baseUrl,
    lines,
    sha256: hash.digest('hex'),
    ...mark,
  };
  try {
    makeDir(join(paths.index, '..'));
    const closing = Buffer.from(`#${JSON.stringify(trailer)}\n`);
    withFileLock(paths.index, () => replaceFile(paths.index, [...parts, closing]));
  } catch {
    // A cache that cannot be written (read-only home, full disk) only makes the next look-up slower.
  }
}

/**
 * A temp file renamed over `path`: a reader sees the old file or the new one, whole. Not flushed
 * to disk first (a rebuilt index is tens of megabytes at a million borrowers): a file cut short by
 * a crash fails its hash, and is rebuilt.
 */
function replaceFile(path: string, parts: readonly Buffer[]): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writevSync(fd, parts);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The e-mail loanctl saw with this reference (any case), or undefined when it never saw it. */
export function referencedEmail(paths: IndexPaths, reference: string): string | undefined {
  const text = readRegularFile(paths.references, 'the reference index') ?? '';
  const wanted = reference.trim().toUpperCase();
  let email: string | undefined;
  let number = 0;
  for (const line of text.split('\n')) {
    number++;
    if (line === '') continue;
    const [quotedRef = '', quotedEmail = '', check] = line.split('\t');
    if (check !== referenceCheck(quotedRef, quotedEmail)) {
      throw new UsageError(
        `The reference index ${paths.references} is damaged (line ${number}); loanctl did not use it.`,
        'Remove it (loanctl cache clear): references are remembered again as they are seen.',
      );
    }
    if (JSON.parse(quotedRef).toUpperCase() === wanted) email = JSON.parse(quotedEmail);
  }
  return email;
}

/** Remembers references with their borrower's e-mail (appended under the file's lock). */
export function rememberReferences(paths: IndexPaths, pairs: readonly { reference: string; email: string }[]): void {
  if (pairs.length === 0) return;
  const lines = pairs.map(({ reference, email }) => {
    const quotedRef = JSON.stringify(reference.trim());
    const quotedEmail = JSON.stringify(emailKey(email.trim()));
    return `${quotedRef}\t${quotedEmail}\t${referenceCheck(quotedRef, quotedEmail)}\n`;
  });
  try {
    makeDir(join(paths.references, '..'));
    withFileLock(paths.references, () => appendFileSync(paths.references, lines.join(''), { mode: 0o600 }));
  } catch {
    // Not remembered: `user show REFERENCE` then says to use the e-mail instead.
  }
}

/** A bulk run's way to remember references as it sees them: written a thousand at a time, and at its end. */
export function referenceBatch(paths: IndexPaths) {
  let pending: { reference: string; email: string }[] = [];
  const flush = () => {
    rememberReferences(paths, pending);
    pending = [];
  };
  const add = (reference: string, email: string) => {
    pending.push({ reference, email });
    if (pending.length >= 1000) flush();
  };
  return { add, flush };
}

function referenceCheck(quotedRef: string, quotedEmail: string): string {
  return createHash('sha256').update(`${quotedRef}\t${quotedEmail}`).digest('hex').slice(0, 16);
}

/** Removes every index file; returns how many there were. */
export function clearUserIndexes(env: Env): { dir: string; removed: number } {
  const dir = cacheDir(env);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => PREFIXES.some((prefix) => name.startsWith(prefix)));
  } catch {
    return { dir, removed: 0 };
  }
  for (const name of names) rmSync(join(dir, name), { force: true });
  return { dir, removed: names.length };
}
