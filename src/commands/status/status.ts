/**
 * `loanctl status`: one screen of what needs the operator. Four parts, each read as its own
 * command reads it: the approval queue (`loan queue`'s walk, ../loan/queue.ts), loan requests long
 * in a stage (src/contract/states.ts), bulk files with rows left (src/bulk/pending.ts) and the
 * sandbox (../sandbox/status.ts). A part that cannot be read (no API key, the server down) says so
 * in its `problem`; the others still show, and the exit is 0.
 */

import { journalDir } from '../../bulk/journal.js';
import { type PendingBulk, pendingBulk } from '../../bulk/pending.js';
import type { LoanRequest } from '../../contract/schemas.js';
import { STAGES, type Stage, stageDef, stageOf } from '../../contract/states.js';
import { isSetTimestamp, parseTimestamp } from '../../contract/vocabulary.js';
import type { Deps } from '../../deps.js';
import { scanQueue } from '../../domain/queue-scan.js';
import { LoanctlError, UsageError } from '../../errors.js';
import { parseDuration } from '../../input/duration.js';
import { openOutcome } from '../../output/render.js';
import { formatAge } from '../../output/values.js';
import { startWalkProgress } from '../../output/walk-progress.js';
import { type SandboxState, sandboxState } from '../../sandbox/control/run-file.js';
import { dataDirFrom } from '../../sandbox/paths.js';
import { type ProductOption, resolveProduct } from '../common/product.js';

export interface StatusOptions extends ProductOption {
  olderThan: string;
  dataDir?: string;
}

/** The approval queue: how many wait, and the one waiting longest. */
interface QueueStatus {
  waiting: number | null;
  oldest_id: number | null;
  oldest_submitted_at: string | null;
  oldest_age: string | null;
  /** Why the loan requests could not be read (then every other field is null, and stages empty). */
  problem: string | null;
}

/** Loan requests in one stage for longer than `--older-than`. */
interface StageStatus {
  stage: Stage;
  older: number;
  oldest_id: number | null;
  oldest_age: string | null;
}

/** What `loanctl status -o json` prints (docs/guide.md#status). */
export interface StatusReport {
  queue: QueueStatus;
  older_than: string;
  stages: StageStatus[];
  bulk: PendingBulk[];
  sandbox: SandboxState;
}

const REPORT_FIELDS: readonly (keyof StatusReport)[] = ['queue', 'older_than', 'stages', 'bulk', 'sandbox'];

export async function runStatus(options: StatusOptions, deps: Deps): Promise<void> {
  const threshold = parseDuration(options.olderThan, '--older-than');
  if (deps.globals.raw) throw new UsageError('status is computed by loanctl, so it has no --raw envelope.');
  const format = deps.globals.output?.toLowerCase();
  if (format === 'csv' || format === 'xlsx') {
    throw new UsageError(
      `status is one record of lists, which -o ${format} has no cells for.`,
      'Use -o json (or --jq).',
    );
  }
  if (options.dataDir !== undefined && options.dataDir.trim() === '')
    throw new UsageError('--data-dir must not be empty.');
  const dataDir = dataDirFrom(options.dataDir, deps.env);
  const output = await openOutcome(deps, REPORT_FIELDS);
  const { queue, stages } = await readLoans(options, deps, threshold);
  const report: StatusReport = {
    queue,
    older_than: options.olderThan,
    stages,
    bulk: await pendingBulk(journalDir(deps.env), deps.io.stdin),
    sandbox: sandboxState(dataDir, deps.now()),
  };
  await output.print(report, reportLines(report));
}

async function readLoans(
  options: StatusOptions,
  deps: Deps,
  threshold: number,
): Promise<{ queue: QueueStatus; stages: StageStatus[] }> {
  const stages = STAGES.map((stage): StageStatus & { since?: number } => ({
    stage,
    older: 0,
    oldest_id: null,
    oldest_age: null,
  }));
  const tally = (loan: LoanRequest, now: number) => {
    const at = stages[STAGES.indexOf(stageOf(loan))];
    const since = enteredAt(loan);
    if (!at || since === undefined || now - since <= threshold) return;
    at.older++;
    if (at.since === undefined || since < at.since) {
      at.since = since;
      at.oldest_id = loan.id;
      at.oldest_age = formatAge(now - since);
    }
  };
  try {
    const productId = await resolveProduct(options, deps);
    const progress = startWalkProgress(deps, 'loan requests');
    const scan = await scanQueue(await deps.api(), productId, deps.now, {
      limit: 1,
      visit: tally,
      onPage: (rows, waiting) => progress.page(rows, waiting),
    }).finally(() => progress.stop());
    const oldest = scan.oldest[0];
    const since = oldest && parseTimestamp(oldest.submitted_at)?.getTime();
    return {
      queue: {
        waiting: scan.waiting,
        oldest_id: oldest?.id ?? null,
        oldest_submitted_at: oldest?.submitted_at ?? null,
        oldest_age: since === undefined ? null : formatAge(scan.now - since),
        problem: null,
      },
      stages: stages.map(({ since: _since, ...stage }) => stage),
    };
  } catch (error) {
    if (!(error instanceof LoanctlError)) throw error;
    const problem = error.hint ? `${error.message} ${error.hint}` : error.message;
    return {
      queue: { waiting: null, oldest_id: null, oldest_submitted_at: null, oldest_age: null, problem },
      stages: [],
    };
  }
}

/**
 * When `loan` entered the stage it is in (ms), if the server says: the stage's timestamp mark
 * (src/contract/states.ts), or its creation for the first stage, which has no marks.
 */
function enteredAt(loan: LoanRequest): number | undefined {
  const mark = stageDef(stageOf(loan)).marks.find((each) => 'timestamp' in each);
  const field = mark && 'timestamp' in mark ? mark.timestamp : 'created_at';
  const stamp: unknown = Reflect.get(loan, field);
  return isSetTimestamp(stamp) ? parseTimestamp(stamp)?.getTime() : undefined;
}

function reportLines(report: StatusReport): string[] {
  return [...queueLines(report.queue), ...stageLines(report), ...bulkLines(report.bulk), sandboxLine(report.sandbox)];
}

function queueLines(queue: QueueStatus): string[] {
  if (queue.problem !== null) return [`Approval queue: cannot be read: ${queue.problem}`];
  if (!queue.waiting) return ['Approval queue: empty'];
  return [`Approval queue: ${queue.waiting} waiting; the oldest, ${queue.oldest_id}, for ${queue.oldest_age}`];
}

function stageLines(report: StatusReport): string[] {
  if (report.stages.length === 0) return [];
  const width = Math.max(...report.stages.map((stage) => stage.stage.length));
  return [
    `In a stage longer than ${report.older_than}:`,
    ...report.stages.map(
      (stage) =>
        `  ${stage.stage.padEnd(width)}  ${String(stage.older).padStart(5)}` +
        (stage.oldest_id === null ? '' : `  oldest ${stage.oldest_id}, ${stage.oldest_age}`),
    ),
  ];
}

function bulkLines(bulk: readonly PendingBulk[]): string[] {
  if (bulk.length === 0) return ['Bulk files: none with rows left'];
  return ['Bulk files with rows left:', ...bulk.map((entry) => `  ${bulkLine(entry)}`)];
}

function bulkLine(entry: PendingBulk): string {
  if (entry.file === null) return entry.problem ?? entry.journal;
  const counts = `${entry.acknowledged} acknowledged, ${entry.refused} refused, ${entry.unknown} unknown`;
  const where = `${entry.file} (${entry.kind === 'user' ? 'users' : 'loan requests'}, ${entry.server})`;
  if (entry.resume === null) return `${where}: ${counts}; ${entry.problem}`;
  return `${where}: ${entry.left} of ${entry.rows} rows left (${counts}); resume: ${entry.resume}`;
}

function sandboxLine(sandbox: SandboxState): string {
  if (!sandbox.running) return `Sandbox: none running on ${sandbox.data_dir}`;
  return `Sandbox: running on ${sandbox.url ?? '(starting)'} (pid ${sandbox.pid}, up ${formatAge(sandbox.uptime_s * 1000)})`;
}
