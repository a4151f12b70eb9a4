// The dashboard's pages at any size: borrowers, loan requests (and each state filter)
// and the queue, first and last page, at 1,000 and at 1,000,000 borrowers and loan requests.
// Goal: at 1,000,000 each page costs at most 1.5 x what it costs at 1,000 (keyset reads on indexes
// that match each order: src/sandbox/dashboard/queries.ts).
//   node bench/dashboard.mjs            both sizes, the table and the goal (exit 1 when it fails)
//   import { dashboardPages } from './dashboard.mjs'   the rows [{what, size, ms}], for bench/run.mjs
// Both sizes run in one process (bench/dashboard-pages.ts, bundled here), their requests interleaved.
import { spawnSync } from 'node:child_process';
import { bundleBenchScript, NODE, ROOT, tempDir } from './lib.mjs';

const GOAL = 1.5;

/** The rows {what, size, ms} (ms: the median of `requests` requests) at each size, measured side by side. */
export async function dashboardPages({ sizes = [1_000, 1_000_000], requests = 40 } = {}) {
  const script = await bundleBenchScript('dashboard-pages');
  const { dir, cleanup } = tempDir('dashboard');
  try {
    const run = spawnSync(
      NODE,
      ['--no-warnings', script, '--data-dir', dir, '--sizes', sizes.join(','), '--requests', String(requests)],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20, timeout: 900_000 },
    );
    if (run.status !== 0) throw new Error(`dashboard pages at ${sizes.join(', ')}: ${run.stderr || run.signal}`);
    return JSON.parse(run.stdout.trim().split('\n').at(-1));
  } finally {
    cleanup();
  }
}

/** Each page at the largest size against the smallest: [{what, small, large, ratio, ok}]. */
export function dashboardGoal(rows) {
  const sizes = [...new Set(rows.map((row) => row.size))].sort((a, b) => a - b);
  const small = sizes[0];
  const large = sizes.at(-1);
  return rows
    .filter((row) => row.size === small)
    .map((row) => {
      const big = rows.find((other) => other.size === large && other.what === row.what);
      const ratio = big.ms / row.ms;
      return { what: row.what, small: row.ms, large: big.ms, ratio, ok: ratio <= GOAL };
    });
}

/** The section for `npm run bench -- --huge` (bench/run.mjs): each page's ratio next to its goal. */
export async function dashboard({ quick }) {
  const goal = dashboardGoal(await dashboardPages({ sizes: quick ? [1_000, 100_000] : [1_000, 1_000_000] }));
  const large = quick ? '100,000' : '1,000,000';
  const figures = goal.map((row) => ({
    figure: `dashboard ${row.what}: ${large} / 1,000`,
    measured: `${row.ratio.toFixed(2)} x (${row.large.toFixed(2)} ms vs ${row.small.toFixed(2)} ms)`,
    goalText: `≤ ${GOAL} x`,
    holds: row.ok,
  }));
  return { lines: [], figures };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await dashboardPages();
  const goal = dashboardGoal(rows);
  console.log(`page                                          1k (ms)   1M (ms)   ratio (goal ≤ ${GOAL})`);
  for (const row of goal) {
    console.log(
      `${row.what.padEnd(44)} ${row.small.toFixed(2).padStart(8)}  ${row.large.toFixed(2).padStart(8)}   ${row.ratio.toFixed(2)} ${row.ok ? '✓' : '✗'}`,
    );
  }
  process.exit(goal.every((row) => row.ok) ? 0 : 1);
}
