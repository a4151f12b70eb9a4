// Shared pieces of the benchmarks: the sandbox server child process, the CLI's environment, and
// side-by-side timing. Everything targets 127.0.0.1 and stops by itself (bounded counts and time).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'loanctl.js');
/** The pinned Node 24 (`npm run bench` runs on it): every child is timed on the same Node. */
export const NODE = process.execPath;
const CACHE = join(ROOT, 'node_modules', '.cache', 'loanctl-bench');

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export const ms = (value) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

/** The machine's 1, 5 and 15 minute load averages, as /proc/loadavg says them: written beside every figure. */
export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** A temporary directory removed by `cleanup()` (the bench leaves nothing behind). */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `loanctl-bench-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** bench/NAME.ts bundled into the cache (src is TypeScript; dependencies stay external). */
export async function bundleBenchScript(name) {
  mkdirSync(CACHE, { recursive: true });
  const outfile = join(CACHE, `${name}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'bench', `${name}.ts`)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22.13',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}

let serverBundle;
/** bench/sandbox-server.ts bundled once per run. */
async function serverScript() {
  serverBundle ??= await bundleBenchScript('sandbox-server');
  return serverBundle;
}

/**
 * Starts the sandbox (bench/sandbox-server.ts) in its own process on a fresh data dir. Resolves
 * with its JSON line plus `stop()`. `seedLoans` loan requests and `seedUsers` borrowers are
 * written before it listens (`huge`: the organisations of bench/huge.mjs, see sandbox-server.ts); `exportJson` is a file to write them to as a json-server database.
 */
export async function startServer({ seedLoans = 0, seedUsers = 0, huge = 0, exportJson, env = {} } = {}) {
  const script = await serverScript();
  const data = tempDir('data');
  const args = ['--data-dir', data.dir, '--seed-loans', String(seedLoans), '--seed-users', String(seedUsers)];
  if (huge > 0) args.push('--huge', String(huge));
  if (exportJson) args.push('--export-json', exportJson);
  const child = spawn(NODE, [script, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { PATH: process.env.PATH ?? '', HOME: data.dir, ...env },
  });
  const lines = createInterface({ input: child.stdout });
  const line = await new Promise((resolve, reject) => {
    // Seeding 2,000,000 borrowers and 1,000,000 loan requests (--huge) takes minutes on a busy machine.
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // never left running (and growing) behind a bench that gave up on it
      data.cleanup();
      reject(new Error('the bench sandbox did not start in 600 s'));
    }, 600_000);
    child.once('exit', (code) => reject(new Error(`the bench sandbox exited (${code}) before listening`)));
    lines.once('line', (text) => {
      clearTimeout(timer);
      resolve(JSON.parse(text));
    });
  });
  return {
    ...line,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      data.cleanup();
    },
  };
}

/**
 * The CLI's environment: nothing from the machine's own settings, a throwaway config dir, and the
 * server's URL and key (LOANCTL_* as an operator's script would set them).
 */
export function cliEnv(server, home) {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    LOANCTL_CONFIG_DIR: join(home, 'loanctl-config'),
    NO_COLOR: '1',
  };
  if (process.env.NODE_COMPILE_CACHE) env.NODE_COMPILE_CACHE = process.env.NODE_COMPILE_CACHE;
  if (server) {
    env.LOANCTL_BASE_URL = server.url;
    env.LOANCTL_API_KEY = server.api_key;
    env.LOANCTL_PRODUCT_ID = String(server.product_id);
  }
  return env;
}

/**
 * Runs each case once per round, in a rotating order (so no case always runs first or right
 * after the same neighbour), for `rounds` rounds after `warmup` untimed ones. Wall time of
 * spawn-to-exit, stdout and stderr to /dev/null as hyperfine does. Returns the samples per case.
 */
export function timeInterleaved(cases, { rounds, warmup = 3, env, cwd = ROOT }) {
  const names = Object.keys(cases);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = -warmup; round < rounds; round++) {
    const shift = ((round % names.length) + names.length) % names.length;
    const order = [...names.slice(shift), ...names.slice(0, shift)];
    for (const name of order) {
      const [command, args] = cases[name];
      const start = process.hrtime.bigint();
      const result = spawnSync(command, args, { stdio: 'ignore', env, cwd, timeout: 30_000 });
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (result.status !== 0) {
        throw new Error(`${name}: ${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
      }
      if (round >= 0) samples[name].push(elapsed);
    }
  }
  return samples;
}

/** Which executable `name` is on PATH, or undefined. */
export function which(name) {
  const result = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * CPU seconds (user + system) that process `pid` and every process below it have used so far, read
 * from outside: the time on a CPU of each of their threads, in nanoseconds (the first field of
 * /proc/PID/task/TID/schedstat, Linux). Not /proc/PID/stat's utime and stime: they count 10 ms clock
 * ticks, 2–6 % of the CPU a half-second slice of one server uses. Threads that ended are not
 * counted (the servers measured keep theirs).
 */
export function cpuSeconds(pid) {
  let nanoseconds = 0;
  for (const id of processTree(pid)) {
    for (const task of readdirIfThere(`/proc/${id}/task`)) {
      const schedstat = readIfThere(`/proc/${id}/task/${task}/schedstat`);
      if (schedstat) nanoseconds += Number(schedstat.split(' ')[0]);
    }
  }
  return nanoseconds / 1e9;
}

/** `pid` and its descendants, from each thread's /proc/PID/task/TID/children. */
function processTree(pid) {
  const tree = [pid];
  for (let next = 0; next < tree.length; next++) {
    const tasks = readdirIfThere(`/proc/${tree[next]}/task`);
    for (const task of tasks) {
      const children = readIfThere(`/proc/${tree[next]}/task/${task}/children`) ?? '';
      tree.push(...children.split(' ').filter(Boolean).map(Number));
    }
  }
  return tree;
}

function readIfThere(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readdirIfThere(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
