/**
 * The single executable's entry (scripts/package.mjs bundles it, as CommonJS, into Node's SEA
 * blob). It does what bin/loanctl.js does for the npm package, less the Node version check: the
 * binary carries its own Node. Node puts the executable in argv[0] and the name it was run by in
 * argv[1], so the arguments start at 2, as they do under `node bin/loanctl.js`.
 */
import { main, prepareProcess } from './entry.js';

const argv = process.argv.slice(2);
boundYoungGenerationOfLongRun(argv);
prepareProcess();
main(argv).then((code) => {
  process.exitCode = code;
});

/**
 * A list walk (`list … --all`) or a bulk file (`create --from`) replaces this process (same pid,
 * stdio, signals and exit status) with the binary started with 4 MB semi-spaces, as
 * bin/loanctl.js does for the npm package and for the same reasons (issue 24: on V8's defaults the
 * young generation grows to 64 MB under such a run's steady allocation). The binary takes no Node
 * flags on its command line, so the size goes in NODE_OPTIONS, which it reads. Only those runs:
 * the SEA configuration's `execArgv` would bound every command, and made `--version` 3–10 % slower
 * (bench/README.md, "The single executable"). A size already given in NODE_OPTIONS is kept, which
 * also ends the relaunch.
 */
function boundYoungGenerationOfLongRun(args: string[]): void {
  const options = process.env.NODE_OPTIONS ?? '';
  const longRun =
    (args.includes('list') && args.includes('--all')) || (args.includes('create') && args.includes('--from'));
  // `user find` keeps almost nothing of its walk: 1 MB, as bin/loanctl.js says why.
  const userFind = args.includes('user') && args.includes('find');
  if (!(longRun || userFind) || options.includes('--max-semi-space-size')) return;
  try {
    process.execve?.(process.execPath, process.argv.slice(1), {
      ...process.env,
      NODE_OPTIONS: `${options} --max-semi-space-size=${userFind ? 1 : 4}`.trim(),
    });
  } catch {
    // Not replaced (it returns only on failure): the run goes on here, on V8's default sizes.
  }
}
