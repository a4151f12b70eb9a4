#!/usr/bin/env node
// Tiny shim: check the Node version in syntax any Node can parse, restart a list walk on Node with
// a bounded young generation (below), turn on the compile cache (repeat starts skip parsing the
// bundle), then hand over to the bundle.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `loanctl needs Node.js 22.13 or newer; this is ${process.version}.\n` +
      'Install Node.js 24 (or 22.13+) and try again, or use the single-file loanctl binary, which carries its own Node (README, "Quick start").\n',
  );
  process.exit(2);
}

// `list --all` (loan requests, users) walks a list of any length; `create --from` sends a file of
// any length. Under such a run's steady allocation V8 keeps growing the young generation to its
// ceiling (64 MB, measured), which alone took the peak RSS of a walk over 1,000,000 loan requests
// to 230 MB while the live heap stayed ~10 MB (issue 24). 4 MB semi-spaces hold it near 85 MB at
// no cost in rows/s (bench/README.md, "Streaming memory at a million"), and save a bulk run ~7 %
// of its CPU a row (bench/README.md, "Bulk share: what was tried"). The size can only be set as Node starts:
// v8.setFlagsFromString comes after the heap is made and changes nothing (measured). So such a run
// replaces this process (same pid, stdio, signals and exit status) with Node started with the
// flag. Where Node cannot (Windows; Node before 22.15, which has no process.execve), it runs here
// on V8's default sizes.
const BOUNDED_YOUNG_GENERATION = '--max-semi-space-size=4';
// `user find` walks the whole user list but keeps almost nothing of it (most pages are passed over
// unparsed): on 1 MB semi-spaces it took ~10 % less CPU than on 4 MB, and ~30 % less than on V8's
// defaults (bench/README.md, "`user find --phone`: the client's cost per page").
const SMALL_YOUNG_GENERATION = '--max-semi-space-size=1';
const argv = process.argv.slice(2);
const isUserFind = argv.includes('user') && argv.includes('find');
const isLongRun =
  (argv.includes('list') && argv.includes('--all')) || (argv.includes('create') && argv.includes('--from'));
// A size already given (on the command line, or by the user in NODE_OPTIONS) is kept.
const sizeGiven = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`.includes('--max-semi-space-size');
if ((isLongRun || isUserFind) && process.execve && !sizeGiven) {
  const { fileURLToPath } = await import('node:url');
  const script = fileURLToPath(import.meta.url);
  try {
    process.execve(process.execPath, [
      process.execPath,
      ...process.execArgv,
      isUserFind ? SMALL_YOUNG_GENERATION : BOUNDED_YOUNG_GENERATION,
      script,
      ...argv,
    ]);
  } catch {
    // Not replaced (it returns only on failure): the walk runs here, on V8's default sizes.
  }
}
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { main, prepareProcess } = await import('../dist/loanctl.js');
prepareProcess();
process.exitCode = await main(argv);
