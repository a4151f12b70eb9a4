// Which runs start Node with a bounded young generation, and how large: one rule for
// bin/loanctl.js (the npm package) and src/binary.ts (the single executable). Plain JavaScript any
// Node can parse: the shim reads it before it has checked the Node version.
//
// A run that reads or sends a list of any length allocates steadily: a list walk (`list --all`),
// a look-up that walks a whole list because the API has no search (`loan find`, `loan queue`,
// `user find`), a bulk file (`create --from`). Under such a run V8 keeps growing the young
// generation to its ceiling (64 MB, measured), which alone took the peak RSS of a walk over
// 1,000,000 loan requests to 230 MB while the live heap stayed ~10 MB (issue 24). 4 MB semi-spaces
// hold it near 85 MB and save a bulk run ~7 % of its CPU a row (bench/README.md, "Streaming memory
// at a million", "Bulk share: what was tried"). `user find` keeps almost nothing of its walk (most
// pages are passed over from their text): on 1 MB it took ~10 % less CPU than on 4 MB and ~30 %
// less than on V8's defaults (bench/README.md, "`user find --phone`: the client's cost per page").
// The size can only be set as Node starts: v8.setFlagsFromString comes after the heap is made and
// changes nothing (measured).

/** The V8 flag a run of these words (after `loanctl`) is started with, or undefined for V8's defaults. */
export function youngGenerationFlag(argv) {
  const has = (word) => argv.includes(word);
  if (has('user') && has('find')) return '--max-semi-space-size=1';
  const longRun = (has('list') && has('--all')) || bulkCreate(argv) || has('find') || (has('loan') && has('queue'));
  return longRun ? '--max-semi-space-size=4' : undefined;
}

/**
 * A bulk file worth a second start of Node: stdin or a pipe (any length), or a file of at least
 * LARGE_FILE_BYTES. Below that the relaunch (~15 ms) costs more than it saves (bench/README.md,
 * "Bulk share", round six); an operator's file of a few hundred rows runs at once. A file that
 * cannot be read runs at once too, and says why.
 */
function bulkCreate(argv) {
  const from = argv.includes('create') ? flagValue(argv, '--from') : undefined;
  if (from === undefined) return false;
  if (from === '-') return true;
  try {
    const stats = process.getBuiltinModule('node:fs').statSync(from);
    return !stats.isFile() || stats.size >= LARGE_FILE_BYTES;
  } catch {
    return false;
  }
}

/** ~1,700 rows of a borrower each (150 bytes a row). */
export const LARGE_FILE_BYTES = 256 * 1024;

/** The value of `--name VALUE` or `--name=VALUE` in argv. */
function flagValue(argv, name) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i].startsWith(`${name}=`)) return argv[i].slice(name.length + 1);
  }
  return undefined;
}

/** True when a semi-space size was already given (on Node's command line or in NODE_OPTIONS): it is kept. */
export function sizeGiven(execArgv, nodeOptions) {
  return `${execArgv.join(' ')} ${nodeOptions ?? ''}`.includes('--max-semi-space-size');
}
