/**
 * What the sandbox tells its operator (stderr, through `onError`) when requests fail in a way its
 * routes do not answer themselves: a full disk named as such, and a flood of one failure as a few
 * lines, not one a request (a full disk failed thousands of writes in seconds).
 */

/** A failure the sandbox can name: told as its own line, not as an unexpected error. */
export class SandboxTrouble extends Error {
  override name = 'SandboxTrouble';
}

/** The default `onError`: one line on stderr (an unexpected error with its stack). */
export function toStderr(error: unknown): void {
  process.stderr.write(
    error instanceof SandboxTrouble
      ? `sandbox: ${error.message}\n`
      : `sandbox: unexpected error: ${(error as Error)?.stack ?? error}\n`,
  );
}

/** Node's and SQLite's ways of saying a write found no room: ENOSPC, a file size limit, SQLITE_FULL, a failed write. */
export function isOutOfStorage(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  if (code === 'ENOSPC' || code === 'EFBIG' || code === 'EDQUOT') return true;
  // A file size limit reaches SQLite as a failed write (SQLITE_IOERR), not as SQLITE_FULL.
  const failure = sqliteFileFailure(error);
  return failure === 'ENOSPC' || failure === 'EIO';
}

/**
 * SQLite's primary result codes (the low byte of node:sqlite's extended `errcode`) that say a file
 * or its disk failed, as the system error each stands for.
 */
const SQLITE_FILE_FAILURES: Readonly<Record<number, string>> = {
  3: 'EACCES', // SQLITE_PERM
  8: 'EROFS', // SQLITE_READONLY
  10: 'EIO', // SQLITE_IOERR
  13: 'ENOSPC', // SQLITE_FULL
};

/** The system error (ENOSPC, EIO…) an SQLite error stands for when a file or its disk failed, else undefined. */
export function sqliteFileFailure(error: unknown): string | undefined {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (code !== 'ERR_SQLITE_ERROR' || typeof errcode !== 'number') return undefined;
  return SQLITE_FILE_FAILURES[errcode & 0xff];
}

/** The line a full disk gets, naming where the sandbox keeps its data. */
function diskFullTrouble(dataDir: string): SandboxTrouble {
  return new SandboxTrouble(
    `the disk is full (or a file size limit was reached) where the sandbox keeps its data, ${dataDir}: writes are refused until there is room`,
  );
}

/** How long repeats of one failure are counted before they are told, as one line. */
const REPEAT_WINDOW_MS = 10_000;

/**
 * `onError`, told the first of each kind of failure at once and its repeats as one line at the end
 * of the window (then the next one at once again): at most two lines a kind every window.
 * `flush()` tells what is counted (when the sandbox stops).
 */
export function reportingOnce(
  onError: (error: unknown) => void,
  dataDir: string,
  windowMs = REPEAT_WINDOW_MS,
): { report: (error: unknown) => void; flush: () => void } {
  const counted = new Map<string, { error: unknown; repeats: number }>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    for (const { error, repeats } of counted.values()) {
      if (repeats === 0) continue;
      try {
        onError(new SandboxTrouble(`${repeats} more like it in ${windowMs / 1000} s: ${described(error)}`));
      } catch {
        // Told from a timer or while closing, where a throw would take the process down: the
        // first of these errors already went through `onError` where it arose.
      }
    }
    counted.clear();
  };
  const report = (error: unknown) => {
    const told = isOutOfStorage(error) ? diskFullTrouble(dataDir) : error;
    const kind = described(told);
    const seen = counted.get(kind);
    if (seen) {
      seen.repeats++;
      return;
    }
    counted.set(kind, { error: told, repeats: 0 });
    onError(told);
    if (timer === undefined) {
      timer = setTimeout(flush, windowMs);
      timer.unref();
    }
  };
  return { report, flush };
}

function described(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split('\n')[0] ?? '';
  return error instanceof SandboxTrouble ? first : `unexpected error: ${first}`;
}
