/**
 * The progress of a client-side walk over a list the API cannot search (`user find`, `user show
 * REFERENCE`, `loan find --reference`, `loan queue`): `Scanned 12,450 users (249 pages); 3 matched` on stderr,
 * drawn when a page has been read, at most ten times a second, on a terminal only (a pipe or a
 * file gets only the command's closing line), and erased when the walk ends — as bulk draws its
 * line (src/bulk/report.ts).
 */
import type { Io } from '../basics.js';
import type { PageSeen } from '../domain/pages.js';

export interface WalkProgress {
  page: PageSeen;
  stop(): void;
}

const REDRAW_MS = 100;

/**
 * Starts the line; `rows` names what is scanned ("users", "loan requests"). Without `matched`, a
 * walk that looks for nothing (reading the index of borrowers) does not count matches.
 */
export function startWalkProgress(deps: { io: Io }, rows: string, options: { matched?: boolean } = {}): WalkProgress {
  const { stderr } = deps.io;
  if (stderr.isTTY !== true) return { page() {}, stop() {} };
  let scanned = 0;
  let pages = 0;
  let matched = 0;
  let drawnAt: number | undefined;
  const number = (value: number) => value.toLocaleString('en-GB');
  return {
    page(rowsRead, rowsMatched) {
      scanned += rowsRead;
      pages++;
      matched += rowsMatched;
      const now = performance.now();
      if (drawnAt !== undefined && now - drawnAt < REDRAW_MS) return;
      drawnAt = now;
      const found = options.matched === false ? '' : `; ${number(matched)} matched`;
      stderr.write(
        `\r\x1b[KScanned ${number(scanned)} ${rows} (${number(pages)} page${pages === 1 ? '' : 's'})${found}`,
      );
    },
    stop() {
      if (drawnAt !== undefined) stderr.write('\r\x1b[K');
    },
  };
}
