/**
 * A snapshot's seal: `NAME.seal` beside `NAME.db`, written when the sandbox takes the snapshot and
 * has checked every value of the file it wrote (./snapshot-check.ts). It holds a keyed digest
 * (HMAC-SHA-256) of the file's bytes. A restore that finds the seal matching the file, byte for
 * byte, knows its values were checked and skips reading every row again; a file changed in any
 * byte, or without its seal, has every value checked (docs/decisions/snapshot-seal.md).
 *
 * The key is no secret: whoever can write a snapshot can write the sandbox's own database. It keeps
 * a seal from being remade by a common tool (`sha256sum` after a hand edit), and it names the rules
 * the values were checked by (SEAL_KEY).
 */
import { createHmac } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';

/** Names the rules of ./snapshot-check.ts the values were checked by: a new version when they change. */
const SEAL_KEY = 'loanctl sandbox snapshot, values checked by the rules of snapshot-check.ts, version 1';
const SEAL_SUFFIX = '.seal';
const CHUNK_BYTES = 1 << 20;
/** A seal is 64 hex digits and a newline; more is not a seal of ours (and is not read). */
const SEAL_READ_BYTES = 128;

/** `snapshots/NAME.seal` for `snapshots/NAME.db`. */
function sealPathFor(snapshotFile: string): string {
  return `${snapshotFile.replace(/\.db$/, '')}${SEAL_SUFFIX}`;
}

/** The seal of the bytes an open file holds, read from its start through the descriptor. */
export function sealOfOpenFile(fd: number): string {
  const mac = createHmac('sha256', SEAL_KEY);
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let position = 0;
  for (let read = readSync(fd, chunk, 0, CHUNK_BYTES, position); read > 0; ) {
    mac.update(chunk.subarray(0, read));
    position += read;
    read = readSync(fd, chunk, 0, CHUNK_BYTES, position);
  }
  return mac.digest('hex');
}

/**
 * The seal written beside `snapshotFile`, or undefined when there is none to believe: no file, or
 * not a regular one (opened without blocking: a FIFO there must not hang the restore).
 */
export function writtenSeal(snapshotFile: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(sealPathFor(snapshotFile), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const text = Buffer.alloc(SEAL_READ_BYTES);
    return text.toString('latin1', 0, readSync(fd, text, 0, SEAL_READ_BYTES, 0)).trim();
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `seal` beside `snapshotFile` (a temporary name, then renamed, so a seal that exists is
 * whole), or removes the seal there when the file earned none: an older seal never stays beside a
 * newer file (it would not match it anyway; this keeps the directory saying what is true). When
 * the seal cannot be written, it throws, having removed what it could of the temporary file and
 * of an older seal.
 */
export function writeSeal(snapshotFile: string, seal: string | undefined): void {
  const file = sealPathFor(snapshotFile);
  if (seal === undefined) {
    rmSync(file, { force: true });
    return;
  }
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${seal}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    for (const left of [temporary, file]) removeIfPossible(left);
    throw error;
  }
}

/** Removes a file if it is there and can be removed (a directory in its place stays). */
function removeIfPossible(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // What cannot be removed is no seal of a file (writtenSeal believes regular files only).
  }
}

/**
 * The seal vouches only for the file's own bytes. SQLite also reads a write-ahead log or a rollback
 * journal left beside it, pages the seal never saw: with one there, every value is checked.
 */
export function sealMatches(file: string, fd: number): boolean {
  if (SQLITE_SIDE_FILES.some((suffix) => existsSync(`${file}${suffix}`))) return false;
  const written = writtenSeal(file);
  return written !== undefined && written === sealOfOpenFile(fd);
}

const SQLITE_SIDE_FILES = ['-wal', '-journal'];
