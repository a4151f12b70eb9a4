/**
 * A bulk run's rows run without V8's top tier (TurboFan): its compiling, on a helper thread, took
 * ~10 % of a run's CPU and a core from the server the run feeds, for code no faster here than
 * Maglev's (bench/README.md, "Bulk share", round five).
 *
 * Turned off from inside the run, once its first row has been sent and answered, not with
 * `--max-opt=2` on Node's command line: V8 takes the code cache built into Node for its own
 * modules (node:http, crypto, streams) only while its flags are the ones Node was built with, so
 * that flag cost every bulk start ~15 ms of compiling (rounds six and eight); and `NODE_OPTIONS`
 * refuses it, which left the single executable on TurboFan. By the first answer every module a
 * row needs is loaded (with its cache), and TurboFan has compiled nothing: its first compile comes
 * after ~500 rows (`--trace-opt`). Round eight has the figures.
 */

/** A tier flag given to Node by hand, on its command line (NODE_OPTIONS refuses them): that one is kept. */
const TIER_FLAG = /--(no-)?(turbofan|opt|maglev)\b|--max-opt/;

let decided = false;

/** Turns TurboFan off for the rest of the process, once, unless Node was given a tier flag. */
export function leaveTopTier(): void {
  if (decided) return;
  decided = true;
  if (TIER_FLAG.test(process.execArgv.join(' '))) return;
  process.getBuiltinModule('node:v8').setFlagsFromString('--no-turbofan');
}
