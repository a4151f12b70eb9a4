// `sandbox reset` and `sandbox restore` at 1,000 and 1,000,000 rows (goal: ≤ 5 s at 1M).
// Each size gets a data dir of its own, grown with SQL (a quarter borrowers, the rest loan
// requests), a snapshot of it, then the real CLI timed as an operator runs it:
//   loanctl sandbox restore full --yes   (replaces every row with the snapshot's)
//   loanctl sandbox reset --yes          (empties borrowers and loan requests)
// `restoreFigures({ sizes })` returns rows { what, size, ms }; run alone, this file prints them:
//   npm run build && npx node bench/restore.mjs [size …]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { BIN, NODE, tempDir } from './lib.mjs';

export const RESTORE_SIZES = [1_000, 1_000_000];
/** The goal for both verbs at a million rows (bench/README). */
export const RESTORE_GOAL_MS = 5_000;

const loanctl = (dataDir, ...args) =>
  execFileSync(NODE, [BIN, 'sandbox', ...args, '--data-dir', dataDir, '-o', 'json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

function timed(dataDir, ...args) {
  const started = performance.now();
  loanctl(dataDir, ...args);
  return performance.now() - started;
}

/** `size` rows in one organisation's product: size/4 users, the rest their loan requests. */
function grow(dataDir, size) {
  const { org_id } = JSON.parse(loanctl(dataDir, 'org', 'create', '--name', 'Bench Lender'));
  const { product_id } = JSON.parse(loanctl(dataDir, 'product', 'create', '--org', String(org_id), '--name', 'Bench'));
  const users = Math.max(1, Math.floor(size / 4));
  const db = new DatabaseSync(join(dataDir, 'sandbox.db'));
  try {
    db.exec('BEGIN');
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :users)
       INSERT INTO users (org_id, firstname, lastname, email, phone, gender, reference, source,
                          is_active, created_at, updated_at, org_seq)
       SELECT :org, 'Ada', 'Bench', 'b' || i || '@example.com', '+2348000000000', 'female', 'bench-u-' || i,
              'api', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', i FROM n`,
    ).run({ users, org: org_id });
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :loans)
       INSERT INTO loan_requests (org_id, user_id, product_id, reference, amount, purpose, status, lender_status,
                                  user_status, active, debit_mandate_next_step, created_at, updated_at)
       SELECT :org, (SELECT min(id) FROM users) + i % :users, :product, 'bench-l-' || i, 250000, 'stock', 'pending',
              'pending', 'submitted', 1, 'none', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n`,
    ).run({ loans: size - users, users, org: org_id, product: product_id });
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

export async function restoreFigures({ sizes = RESTORE_SIZES } = {}) {
  const rows = [];
  for (const size of sizes) {
    const { dir, cleanup } = tempDir(`restore-${size}`);
    try {
      grow(dir, size);
      loanctl(dir, 'snapshot', 'full');
      rows.push({ what: 'sandbox restore', size, ms: timed(dir, 'restore', 'full', '--yes') });
      rows.push({ what: 'sandbox reset', size, ms: timed(dir, 'reset', '--yes') });
    } finally {
      cleanup();
    }
  }
  return rows;
}

/** The section for `npm run bench -- --huge` (bench/run.mjs): each verb at each size, the largest against its goal. */
export async function restore({ quick }) {
  const sizes = quick ? [1_000, 100_000] : RESTORE_SIZES;
  const largest = sizes.at(-1);
  const figures = (await restoreFigures({ sizes })).map((row) => ({
    figure: `${row.what}, ${row.size.toLocaleString('en-GB')} rows`,
    measured: `${(row.ms / 1000).toFixed(2)} s`,
    goalText: row.size === largest ? `≤ ${RESTORE_GOAL_MS / 1000} s at 1,000,000` : '—',
    holds: row.size === 1_000_000 ? row.ms <= RESTORE_GOAL_MS : null,
  }));
  return { lines: [], figures };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sizes = process.argv.slice(2).map(Number);
  for (const row of await restoreFigures(sizes.length > 0 ? { sizes } : {})) {
    const verdict = row.size >= 1_000_000 ? (row.ms <= RESTORE_GOAL_MS ? '  ✓ ≤ 5 s' : '  ✗ > 5 s') : '';
    console.log(
      `${row.what.padEnd(16)} ${String(row.size).padStart(9)} rows  ${row.ms.toFixed(0).padStart(6)} ms${verdict}`,
    );
  }
}
