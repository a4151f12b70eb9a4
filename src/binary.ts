/**
 * The single executable's entry (scripts/package.mjs bundles it, as CommonJS, into Node's SEA
 * blob). It does what bin/loanctl.js does for the npm package, less the Node version check: the
 * binary carries its own Node. Node puts the executable in argv[0] and the name it was run by in
 * argv[1], so the arguments start at 2, as they do under `node bin/loanctl.js`.
 */
import { sizeGiven, youngGenerationFlag } from '../bin/long-run.js';
import { main, prepareProcess } from './entry.js';

const argv = process.argv.slice(2);
boundYoungGenerationOfLongRun(argv);
prepareProcess();
main(argv).then((code) => {
  process.exitCode = code;
});

/**
 * A run that walks or sends a list of any length (bin/long-run.js says which, and why) replaces
 * this process (same pid, stdio, signals and exit status) with the binary started with a bounded
 * young generation, as bin/loanctl.js does for the npm package. The binary takes no Node flags on
 * its command line, so the size goes in NODE_OPTIONS, which it reads. Only those runs: the SEA
 * configuration's `execArgv` would bound every command, and made `--version` 3–10 % slower
 * (bench/README.md, "The single executable"). A size already given in NODE_OPTIONS is kept, which
 * also ends the relaunch.
 */
function boundYoungGenerationOfLongRun(args: string[]): void {
  const options = process.env.NODE_OPTIONS ?? '';
  const youngGeneration = youngGenerationFlag(args);
  if (!youngGeneration || sizeGiven([], options)) return;
  try {
    process.execve?.(process.execPath, process.argv.slice(1), {
      ...process.env,
      NODE_OPTIONS: `${options} ${youngGeneration}`.trim(),
    });
  } catch {
    // Not replaced (it returns only on failure): the run goes on here, on V8's default sizes.
  }
}
