// Bulk: 10,000 users through `loanctl user create --from FILE` against the local sandbox, against
// a shell loop running curl once per user on the same server in the same run. The curl loop runs
// on a sample (half before the bulk run, half after, so drift in the machine's load hits both)
// and is scaled per user to 10,000.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cliEnv, ms, NODE, startServer, tempDir, which } from './lib.mjs';

export const user = (tag, i) => ({
  firstname: 'Bench',
  lastname: `User ${i}`,
  email: `${tag}-${i}@bench.example`,
  password: 'correct horse battery staple',
  phone: `+23480${String(10_000_000 + i).slice(-8)}`,
  gender: i % 2 ? 'female' : 'male',
});

export const ndjson = (rows) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;

/** The loop an operator writes without loanctl: one curl per user, bodies read from a file. */
const CURL_LOOP = `while IFS= read -r body; do
  curl -sS -o /dev/null --fail-with-body -X POST "$URL/api/v1/user" \\
    -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' --data-raw "$body" || exit 1
done < "$FILE"`;

function curlLoop(server, file) {
  const start = process.hrtime.bigint();
  const result = spawnSync('bash', ['-c', CURL_LOOP], {
    env: { PATH: process.env.PATH ?? '', URL: server.url, KEY: server.api_key, FILE: file },
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 240_000,
  });
  if (result.status !== 0) throw new Error(`the curl loop failed (${result.status ?? result.signal})`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Runs `loanctl user create --from FILE` and counts its result lines by status. `resultsFile`: its
 * stdout goes to that file, as an operator keeps a large run's results, and is counted after the
 * run; without it, the bench reads the pipe line by line while loanctl runs (a reader beside it).
 */
export async function loanctlFrom(server, file, home, { resultsFile } = {}) {
  const start = process.hrtime.bigint();
  const results = resultsFile === undefined ? 'pipe' : openSync(resultsFile, 'w');
  const child = spawn(NODE, [BIN, 'user', 'create', '--from', file], {
    env: cliEnv(server, home),
    stdio: ['ignore', results, 'pipe'],
  });
  if (typeof results === 'number') closeSync(results); // the child holds its own copy
  const counts = { success: 0, exists: 0, error: 0 };
  const count = (lines) => {
    for (const line of lines) if (line) counts[JSON.parse(line).status]++;
  };
  let rest = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    count(lines);
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (code !== 0) throw new Error(`loanctl user create --from exited ${code}: ${stderr.slice(-500)}`);
  if (resultsFile !== undefined) count(readFileSync(resultsFile, 'utf8').split('\n'));
  return { elapsed, counts, summary: stderr.trim().split('\n').at(-1) ?? '' };
}

export async function bulk({ quick }) {
  if (!which('curl')) throw new Error('curl is not installed: the bulk figure compares against a curl loop');
  const total = quick ? 2_000 : 10_000;
  const sample = quick ? 100 : 300;
  const home = tempDir('bulk');
  const server = await startServer();
  try {
    const file = join(home.dir, 'users.ndjson');
    writeFileSync(file, ndjson(Array.from({ length: total }, (_, i) => user('bulk', i + 1))));
    const before = join(home.dir, 'curl-before.ndjson');
    const after = join(home.dir, 'curl-after.ndjson');
    writeFileSync(before, ndjson(Array.from({ length: sample / 2 }, (_, i) => user('curl-a', i + 1))));
    writeFileSync(after, ndjson(Array.from({ length: sample / 2 }, (_, i) => user('curl-b', i + 1))));

    const curlBefore = curlLoop(server, before);
    const run = await loanctlFrom(server, file, home.dir);
    const curlAfter = curlLoop(server, after);
    if (run.counts.success !== total) {
      throw new Error(`expected ${total} users created, got ${JSON.stringify(run.counts)}: ${run.summary}`);
    }
    const curlPerUser = (curlBefore + curlAfter) / sample;
    const curlScaled = curlPerUser * total;
    const ratio = curlScaled / run.elapsed;
    const lines = [
      `  curl loop, one process per user: ${sample} users in ${ms(curlBefore + curlAfter)} (${sample / 2} before, ${sample / 2} after the bulk run) = ${ms(curlPerUser)} a user → ${(curlScaled / 1000).toFixed(1)} s for ${total}`,
      `  loanctl user create --from (${total} NDJSON rows, --concurrency 8 default): ${(run.elapsed / 1000).toFixed(1)} s = ${ms(run.elapsed / total)} a user, ${Math.round(total / (run.elapsed / 1000))} users/s`,
      `  loanctl's summary: ${run.summary}`,
    ];
    return {
      lines,
      figures: [
        {
          figure: `bulk ${total} users: curl loop / loanctl --from`,
          measured: `${ratio.toFixed(1)} x faster`,
          goalText: '≥ 15 x faster',
          holds: ratio >= 15,
        },
      ],
    };
  } finally {
    await server.stop();
    home.cleanup();
  }
}
