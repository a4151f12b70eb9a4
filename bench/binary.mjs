// The single executable's start-up: `--version` and one network command (`user exists`) of the
// binary `npm run package` builds, beside `node -e 0` on the Node it embeds and the npm package's
// bin on that Node, interleaved, medians. The section builds the binary first (scripts/package.mjs,
// a few seconds), so what it times is the code of this checkout.
//   npm run bench -- --only binary
//   npx node bench/binary.mjs [--quick]       alone, after `npm run build`
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, cliEnv, loadAverage, median, ms, NODE, ROOT, startServer, tempDir, timeInterleaved } from './lib.mjs';

/** The goals of docs/performance.md, as ratios to `node -e 0`. */
const GOALS = { 'binary --version': 1.3, 'binary user exists': 3 };

let built;
/**
 * Builds the binary once per bench process: `{ path, seconds }`, or `{ error }` with the last line
 * scripts/package.mjs said (it refuses a platform it cannot build for).
 */
function buildBinary() {
  built ??= (() => {
    const start = Date.now();
    const result = spawnSync(NODE, [join(ROOT, 'scripts', 'package.mjs')], { cwd: ROOT, encoding: 'utf8' });
    if (result.status !== 0) {
      const said = (result.stderr ?? '').trim().split('\n').at(-1);
      return { error: said || `scripts/package.mjs exited with ${result.status ?? result.signal}` };
    }
    // scripts/package.mjs prints the binary's path on its first line.
    return { path: result.stdout.split('\n')[0].trim(), seconds: (Date.now() - start) / 1000 };
  })();
  return built;
}

/** The section for `npm run bench` (bench/run.mjs). */
export async function binary({ quick }) {
  const build = buildBinary();
  if (build.error) {
    const measured = `not built: ${build.error}`;
    const figures = Object.entries(GOALS).map(([name, goal]) => ({
      figure: `${name} / node -e 0`,
      measured,
      goalText: `≤ ${goal} x`,
      holds: false,
    }));
    return { lines: [`  ${measured}`], figures };
  }
  const server = await startServer();
  const home = tempDir('binary');
  try {
    const env = cliEnv(server, home.dir);
    const exists = ['user', 'exists', '--email', 'nobody@bench.example', '-o', 'json'];
    const check = spawnSync(build.path, exists, { env, encoding: 'utf8' });
    if (check.status !== 0 || check.stdout.trim() !== 'false') {
      throw new Error(`the binary's user exists answered ${check.status}: ${check.stdout}${check.stderr}`);
    }
    const cases = {
      'node -e 0': [NODE, ['-e', '0']],
      'binary --version': [build.path, ['--version']],
      'npm package --version': [NODE, [BIN, '--version']],
      'binary user exists': [build.path, exists],
      'npm package user exists': [NODE, [BIN, ...exists]],
    };
    const loadBefore = loadAverage();
    const samples = timeInterleaved(cases, { rounds: quick ? 10 : 40, warmup: 3, env });
    const ratio = (name, to = 'node -e 0') => median(samples[name]) / median(samples[to]);
    const lines = [`  ${build.path}, built in ${build.seconds.toFixed(1)} s`];
    for (const [name, values] of Object.entries(samples)) {
      lines.push(`  ${name.padEnd(24)} median ${ms(median(values)).padStart(9)}  ${ratio(name).toFixed(2)} x`);
    }
    lines.push(
      `  (${samples['node -e 0'].length} interleaved rounds after 3 warm-up rounds; load average ${loadBefore} before, ${loadAverage()} after)`,
    );
    const figures = Object.entries(GOALS).map(([name, goal]) => ({
      figure: `${name} / node -e 0`,
      measured: `${ratio(name).toFixed(3)} x`,
      goalText: `≤ ${goal} x`,
      holds: ratio(name) <= goal,
    }));
    for (const command of ['--version', 'user exists']) {
      figures.push({
        figure: `binary ${command} / the npm package's`,
        measured: `${ratio(`binary ${command}`, `npm package ${command}`).toFixed(3)} x`,
        goalText: '— (reported)',
        holds: null,
      });
    }
    return { lines, figures };
  } finally {
    home.cleanup();
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { lines, figures } = await binary({ quick: process.argv.includes('--quick') });
  for (const line of lines) console.log(line);
  for (const { figure, measured, goalText, holds } of figures) {
    console.log(`  ${figure.padEnd(40)} ${measured.padEnd(10)} ${goalText} ${holds === null ? '' : holds ? '✓' : '✗'}`);
  }
  if (figures.some((f) => f.holds === false)) process.exitCode = 1;
}
