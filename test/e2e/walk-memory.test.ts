/**
 * A list walk's memory is flat in the list's length (docs/performance.md): the built CLI walks the
 * last quarter and then all of the loan requests of a real sandbox (`sandbox start`, its rows
 * written straight into its database first), against a module given to Node with `--import` that
 * reads, inside the CLI's process, its largest `process.memoryUsage().heapTotal` and, through
 * `v8.GCProfiler`, how many bytes survived each young-generation collection.
 *
 * Why both: a walk that held every row would need four times the heap for four times the rows,
 * which the 2x guard catches. A walk that keeps only a page or two of the pages it has written (a
 * page left referenced while the next one is awaited, or while stdout drains) grows too, more
 * slowly: V8 enlarges its young generation each time the bytes surviving its collections, summed,
 * pass its size, and never gives it back while the walk allocates. Each step takes four times the
 * rows of the one before, so the growth shows at a million rows (the bench's `huge`), not at the
 * sizes a test can walk; what drives it does: every collection finds a page alive, 100 loan
 * requests, about 200 KB as text and rows. A walk that holds only the request in flight leaves a
 * few KB.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, isolatedEnv, type SandboxProcess, startSandboxProcess } from '../helpers/sandbox-process.js';
import { seedLoanRequests } from '../helpers/seed-rows.js';

const ROWS = 80_000;
const SHORT = 20_000;
/** What may survive a young-generation collection of the walk: a third of what one page holds. */
const SURVIVORS_KB = 64;

const MEMORY_MODULE = `
import { writeFileSync } from 'node:fs';
import { GCProfiler } from 'node:v8';
let peakHeap = 0;
const read = () => { peakHeap = Math.max(peakHeap, process.memoryUsage().heapTotal); };
setInterval(read, 10).unref();
const profiler = new GCProfiler();
profiler.start();
const young = (spaces) =>
  spaces.filter((space) => space.spaceName.startsWith('new_')).reduce((sum, space) => sum + space.spaceUsedSize, 0);
process.on('exit', () => {
  read();
  // A scavenge moves what it keeps out of the young generation's used space, and frees nothing else.
  const survived = profiler
    .stop()
    .statistics.filter((gc) => gc.gcType === 'Scavenge')
    .map(({ beforeGC, afterGC }) =>
      afterGC.heapStatistics.usedHeapSize - (beforeGC.heapStatistics.usedHeapSize - young(beforeGC.heapSpaceStatistics)));
  writeFileSync(process.env.WALK_MEMORY_FILE, JSON.stringify({ peakHeap, survived }));
});
`;

describe.runIf(process.platform === 'linux')('a list walk over a real sandbox', () => {
  const env = isolatedEnv();
  const home = env.HOME as string;
  const dataDir = join(home, 'sandbox');
  const memoryModule = join(home, 'walk-memory.mjs');
  let sandbox: SandboxProcess;

  beforeAll(async () => {
    assertBuilt();
    writeFileSync(memoryModule, MEMORY_MODULE);
    seedLoanRequests(dataDir, ROWS, 'walk@memory.example');
    sandbox = await startSandboxProcess(dataDir, env);
  }, 120_000);
  afterAll(async () => {
    sandbox?.process.kill('SIGTERM');
    await sandbox?.process;
    rmSync(home, { recursive: true, force: true });
  });

  /** The CLI's environment against the sandbox: nothing of this machine's own settings. */
  const cliEnv = (more: Record<string, string> = {}) => ({
    ...env,
    LOANCTL_BASE_URL: sandbox.line.url,
    LOANCTL_API_KEY: sandbox.line.api_key,
    LOANCTL_PRODUCT_ID: String(sandbox.line.product_id),
    ...more,
  });

  /**
   * `loan list --all -o ndjson` after `cursor`, which must print `rows` rows: its peak heap (MB) and
   * the median of what survived its young-generation collections (KB).
   */
  const walk = async (cursor: number, rows: number) => {
    const memoryFile = join(mkdtempSync(join(home, 'walk-')), 'memory.json');
    const args = ['loan', 'list', '--all', '--direction', 'ASC', '--cursor', String(cursor), '-o', 'ndjson'];
    const child = execa(process.execPath, [BIN, ...args], {
      env: cliEnv({ NODE_OPTIONS: `--import=${memoryModule}`, WALK_MEMORY_FILE: memoryFile }),
      extendEnv: false,
      stdin: 'ignore',
      reject: false,
      buffer: { stdout: false },
    });
    let printed = 0;
    child.stdout?.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) printed++;
    });
    const result = await child;
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(printed).toBe(rows);
    const { peakHeap, survived } = JSON.parse(readFileSync(memoryFile, 'utf8')) as {
      peakHeap: number;
      survived: number[];
    };
    const sorted = survived.toSorted((a, b) => a - b);
    return {
      heapMb: peakHeap / 2 ** 20,
      survivedKb: (sorted[sorted.length >> 1] ?? 0) / 1024,
      collections: sorted.length,
    };
  };

  it(`walking ${ROWS} loan requests keeps nothing of the pages written: no more survives a collection than the request in flight, and four times the rows fit in twice the heap`, async () => {
    const first = await execa(
      process.execPath,
      [BIN, 'loan', 'list', '--direction', 'ASC', '--limit', '1', '-o', 'ndjson'],
      {
        env: cliEnv(),
        extendEnv: false,
        stdin: 'ignore',
      },
    );
    const beforeFirst = (JSON.parse(first.stdout) as { id: number }).id - 1;
    const short = await walk(beforeFirst + ROWS - SHORT, SHORT);
    const long = await walk(beforeFirst, ROWS);
    const said = `${SHORT} rows: ${short.heapMb.toFixed(1)} MB of heap; ${ROWS} rows: ${long.heapMb.toFixed(1)} MB, ${long.collections} young collections, half of them kept ${long.survivedKb.toFixed(0)} KB or less`;
    expect(long.collections, said).toBeGreaterThan(20);
    expect(long.survivedKb, said).toBeLessThan(SURVIVORS_KB);
    expect(long.heapMb, said).toBeLessThanOrEqual(short.heapMb * 2);
  }, 300_000);
});
