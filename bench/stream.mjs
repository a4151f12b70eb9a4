// Streaming lists: 100,000 loan requests (seeded straight into the sandbox's SQLite in one
// transaction) listed with `loan list --all -o ndjson`, then searched client-side with a filter
// that keeps one in 1,000 (`--min-amount 50999 --all`: every page read, few rows written); the CLI
// process's peak RSS, measured by GNU time (/usr/bin/time -v) where installed, else by polling
// /proc/PID/status's VmHWM. The walk runs on V8's defaults: no flag is given to Node.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cliEnv, NODE, startServer, tempDir } from './lib.mjs';

const GNU_TIME = '/usr/bin/time';

function peakFromProc(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

export async function stream({ quick }) {
  const total = quick ? 20_000 : 100_000;
  const home = tempDir('stream');
  const seedStart = Date.now();
  const server = await startServer({ seedLoans: total });
  const seedSeconds = (Date.now() - seedStart) / 1000;
  try {
    const all = await measure(server, home, ['loan', 'list', '--all', '-o', 'ndjson']);
    if (all.rows !== total) throw new Error(`expected ${total} rows, got ${all.rows}`);
    const filtered = await measure(server, home, ['loan', 'list', '--all', '--min-amount', '50999', '-o', 'ndjson']);
    if (filtered.rows !== total / 1000) throw new Error(`expected ${total / 1000} matches, got ${filtered.rows}`);
    const how = all.useTime ? 'GNU time -v' : 'VmHWM polled every 20 ms';
    return {
      lines: [
        `  seeded ${total} loan requests in one transaction; sandbox up in ${seedSeconds.toFixed(1)} s`,
        `  loan list --all -o ndjson: ${all.rows} rows, ${(all.bytes / 1e6).toFixed(0)} MB in ${all.seconds.toFixed(1)} s (${Math.round(all.rows / all.seconds)} rows/s)`,
        `  peak RSS of the CLI process: ${all.peakMb.toFixed(0)} MB (${how})`,
        `  loan list --all --min-amount 50999 (client-side filter): ${filtered.rows} of ${total} rows in ${filtered.seconds.toFixed(1)} s; peak RSS ${filtered.peakMb.toFixed(0)} MB`,
      ],
      figures: [
        {
          figure: `loan list --all ${total} rows: peak RSS`,
          measured: `${all.peakMb.toFixed(0)} MB`,
          goalText: '— (reported; the goal, flat in length, is measured by huge)',
          holds: null,
        },
        {
          figure: `loan list filtered over ${total} rows: peak RSS`,
          measured: `${filtered.peakMb.toFixed(0)} MB`,
          goalText: '— (reported)',
          holds: null,
        },
      ],
    };
  } finally {
    await server.stop();
    home.cleanup();
  }
}

/** Runs the CLI with `argv` (Node given `nodeFlags`) against `server`; its stdout rows and bytes, time and peak RSS (killed after `timeoutMs`). */
export async function measure(server, home, argv, { timeoutMs = 240_000, nodeFlags = [] } = {}) {
  const useTime = existsSync(GNU_TIME);
  const timeFile = join(home.dir, 'time.txt');
  const args = [...nodeFlags, BIN, ...argv];
  const start = process.hrtime.bigint();
  const child = useTime
    ? spawn(GNU_TIME, ['-v', '-o', timeFile, NODE, ...args], { env: cliEnv(server, home.dir) })
    : spawn(NODE, args, { env: cliEnv(server, home.dir) });
  let peakKb = 0;
  const poll = useTime ? undefined : setInterval(() => (peakKb = Math.max(peakKb, peakFromProc(child.pid))), 20);
  let rows = 0;
  let bytes = 0;
  child.stdout.on('data', (chunk) => {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  if (poll) clearInterval(poll);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (code !== 0) throw new Error(`loanctl ${argv.join(' ')} exited ${code}: ${stderr.slice(-500)}`);
  if (useTime) {
    const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(timeFile, 'utf8'));
    peakKb = match ? Number(match[1]) : 0;
  }
  return { rows, bytes, seconds, peakMb: peakKb / 1024, useTime, stderr };
}
