// Start-up: `loanctl --version`, `--help` and one network command (`user exists`) against
// `node -e 0` on the same Node, interleaved, medians; and `--version`/`--help` against `gh --version`
// where gh is installed (Debian: `apt-get install gh`).
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, cliEnv, loadAverage, median, ms, NODE, startServer, tempDir, timeInterleaved, which } from './lib.mjs';

export async function startup({ quick }) {
  const server = await startServer();
  const home = tempDir('startup');
  try {
    const env = cliEnv(server, home.dir);
    const exists = ['user', 'exists', '--email', 'nobody@bench.example', '-o', 'json'];
    const check = spawnSync(NODE, [BIN, ...exists], { env, encoding: 'utf8' });
    if (check.status !== 0 || check.stdout.trim() !== 'false') {
      throw new Error(`user exists answered ${check.status}: ${check.stdout}${check.stderr}`);
    }
    const gh = which('gh');
    const cases = {
      'node -e 0': [NODE, ['-e', '0']],
      'loanctl --version': [NODE, [BIN, '--version']],
      'loanctl --help': [NODE, [BIN, '--help']],
      'loanctl user exists': [NODE, [BIN, ...exists]],
      ...(gh ? { 'gh --version': [gh, ['--version']] } : {}),
    };
    const loadBefore = loadAverage();
    // The warm-up rounds also warm Node's compile cache for every chunk these commands load.
    const samples = timeInterleaved(cases, { rounds: quick ? 10 : 60, warmup: 3, env });
    const base = median(samples['node -e 0']);
    const lines = [];
    for (const [name, values] of Object.entries(samples)) {
      lines.push(
        `  ${name.padEnd(22)} median ${ms(median(values)).padStart(9)}  ${(median(values) / base).toFixed(2)} x`,
      );
    }
    if (!gh) lines.push('  gh --version           not measured: gh is not installed on this machine');
    const cacheDir = process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'node-compile-cache');
    lines.push(
      `  (${samples['node -e 0'].length} interleaved rounds after 3 warm-up rounds; compile cache in ${cacheDir})`,
      `  (load average ${loadBefore} before these rounds, ${loadAverage()} after: a shared machine stretches every ratio)`,
    );
    const ratio = (name) => median(samples[name]) / base;
    const reported = (figure, value) => ({
      figure,
      measured: `${value.toFixed(3)} x`,
      goalText: '— (reported)',
      holds: null,
    });
    const figures = [
      reported('loanctl --version / node -e 0', ratio('loanctl --version')),
      reported('loanctl --help / node -e 0', ratio('loanctl --help')),
      { figure: 'loanctl user exists / node -e 0', value: ratio('loanctl user exists'), goal: 3 },
    ].map((f) =>
      f.goal === undefined
        ? f
        : { ...f, measured: `${f.value.toFixed(3)} x`, goalText: `≤ ${f.goal} x`, holds: f.value <= f.goal },
    );
    // Goal: no slower than gh (a Go binary: no runtime to start), measured in the same rounds.
    for (const name of ['loanctl --version', 'loanctl --help']) {
      const vsGh = gh ? median(samples[name]) / median(samples['gh --version']) : undefined;
      figures.push({
        figure: `${name} / gh --version`,
        measured: vsGh === undefined ? 'gh not installed (apt-get install gh)' : `${vsGh.toFixed(3)} x`,
        goalText: '≤ 1 x',
        holds: vsGh === undefined ? false : vsGh <= 1,
      });
    }
    figures.push({
      figure: 'gh --version / node -e 0 (reference)',
      measured: gh ? `${ratio('gh --version').toFixed(3)} x` : 'gh not installed',
      goalText: '—',
      holds: null,
    });
    return { lines, figures };
  } finally {
    home.cleanup();
    await server.stop();
  }
}
