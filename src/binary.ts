/**
 * The single executable's entry (scripts/package.mjs bundles it, as CommonJS, into Node's SEA
 * blob). It does what bin/loanctl.js does for the npm package, less the Node version check: the
 * binary carries its own Node. Node puts the executable in argv[0] and the name it was run by in
 * argv[1], so the arguments start at 2, as they do under `node bin/loanctl.js`.
 */
import { main, prepareProcess } from './entry.js';

prepareProcess();
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
