/**
 * `mkdir -p` that fails instead of spinning. Node's `mkdirSync(path, { recursive: true })` loops
 * forever, burning a core, where mkdir answers ENOENT although the parent exists (any path under
 * /proc, some FUSE mounts): `sandbox start --data-dir /proc/x` hung instead of saying why.
 * This walks up once: each missing parent is made, then the directory itself is tried once more,
 * and a second ENOENT is the error the caller reports.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** A directory that cannot be made, said plainly: `cannot create /proc/x (no such file or directory)`. */
export class MakeDirError extends Error {
  override name = 'MakeDirError';
  readonly code: string | undefined;
  readonly path: string;

  constructor(path: string, cause: NodeJS.ErrnoException) {
    // Node's message is "ENOENT: no such file or directory, mkdir '/proc/x'": keep the middle.
    const reason = /^\w+: ([^,]+)/.exec(cause.message)?.[1] ?? cause.message;
    super(`cannot create ${path} (${reason})`, { cause });
    this.code = cause.code;
    this.path = path;
  }
}

/** Makes `path` and its missing parents (each with `mode`); a directory already there is fine. */
export function makeDir(path: string, mode = 0o700): void {
  try {
    if (tryMkdir(path, mode) !== 'no-parent') return;
    const parent = dirname(path);
    if (parent !== path) makeDir(parent, mode);
    if (tryMkdir(path, mode) === 'no-parent') mkdirSync(path, { mode }); // throws the ENOENT itself
  } catch (error) {
    if (error instanceof MakeDirError) throw error;
    throw new MakeDirError(path, error as NodeJS.ErrnoException);
  }
}

function tryMkdir(path: string, mode: number): 'done' | 'no-parent' {
  try {
    mkdirSync(path, { mode });
    return 'done';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'no-parent';
    // Already there (made before, or by another process just now): fine if it is a directory.
    if (code === 'EEXIST' && statSync(path).isDirectory()) return 'done';
    if (code === 'EEXIST') throw Object.assign(new Error(`EEXIST: it is a file, not a directory`), { code });
    throw error;
  }
}
