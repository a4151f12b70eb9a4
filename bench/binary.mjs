// Start-up of the single executable, beside `node -e 0` on the Node it embeds and the
// npm package's bin on that Node: `--version` and one network command (`user exists`), interleaved,
// medians. Goals: `--version` ≤ 1.3 ×, `user exists` ≤ 3 × `node -e 0`.
//   npm run package && npx node bench/binary.mjs [--quick]
// Kept apart from run.mjs: it needs the binary, which `npm run bench` does not build.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cliEnv, median, ms, NODE, ROOT, startServer, tempDir, timeInterleaved } from './lib.mjs';

const BINARY = join(ROOT, 'build', `loanctl-${process.platform}-${process.arch}`);
if (!existsSync(BINARY)) {
  process.stderr.write(`bench/binary: no ${BINARY}; build it first with \`npm run package\`.\n`);
  process.exit(1);
}

const quick = process.argv.includes('--quick');
const server = await startServer();
const home = tempDir('binary');
try {
  const env = cliEnv(server, home.dir);
  const exists = ['user', 'exists', '--email', 'nobody@bench.example', '-o', 'json'];
  const cases = {
    'node -e 0': [NODE, ['-e', '0']],
    'binary --version': [BINARY, ['--version']],
    'bin --version': [NODE, [BIN, '--version']],
    'binary user exists': [BINARY, exists],
    'bin user exists': [NODE, [BIN, ...exists]],
  };
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const loadBefore = load();
  const samples = timeInterleaved(cases, { rounds: quick ? 10 : 40, warmup: 3, env });
  const base = median(samples['node -e 0']);
  const goals = { 'binary --version': 1.3, 'binary user exists': 3 };
  process.stdout.write(`Start-up of ${BINARY} (load ${loadBefore} before, ${load()} after)\n`);
  for (const [name, values] of Object.entries(samples)) {
    const ratio = median(values) / base;
    const goal = goals[name] ? `  goal ≤ ${goals[name]} x ${ratio <= goals[name] ? '✓' : '✗'}` : '';
    process.stdout.write(
      `  ${name.padEnd(20)} median ${ms(median(values)).padStart(9)}  ${ratio.toFixed(3)} x${goal}\n`,
    );
  }
} finally {
  home.cleanup();
  await server.stop();
}
