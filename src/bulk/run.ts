/**
 * `user create --from FILE|-`, `loan create --from FILE|-` and `loan approve --from FILE|-`: the glue between the commands and
 * the engine — options, the HTTP pool, what a failure means for a row, and the summary.
 *
 * - One keep-alive pool (src/http/transport.ts, the client's own settings) with as many connections as
 *   `--concurrency` (default 8, at most 64), shared by every request of the run.
 * - Retries follow docs/guide.md#network: GETs, and requests that never reached the server. A POST that
 *   got no reply is never repeated: its row is an `error` saying it may or may not have been
 *   applied, and that running the file again is safe (the journal, ./journal.ts, and the server's
 *   checks, ./remembered.ts). Rows read from stdin have no journal: loan rows' messages say so.
 * - A server that went away: once a request is refused after its retries, the next rows are sent
 *   without retries (each still tried once, so a server back up is used again at once, and retries
 *   come back with the first success): a few hundred rows fail in a moment, not in minutes.
 * - Exit 0 when every row is `success` or `exists`; 1 when any failed (PartialFailureError);
 *   3 when the API rejected the key (the run stops there: every row would fail the same way).
 */
import type { Deps } from '../deps.js';
import {
  AuthError,
  CancelledError,
  DryRunComplete,
  LoanctlError,
  LocalFileError,
  NetworkError,
  PartialFailureError,
  UsageError,
} from '../errors.js';
import type { ApiClient } from '../http/api-client.js';
import { createApiClient, createPool } from '../http/client.js';
import { neverSent } from '../http/network-failure.js';
import { unknownOutcome } from '../http/outcome.js';
import { parseId, parseWholeNumber } from '../input/values.js';
import { chooseFormat } from '../output/formats/index.js';
import { resolveOutputSettings } from '../output/settings.js';
import type { AcceptedWarnings } from './approvals.js';
import { type BulkTask, type RowOutcome, type RowResult, runBulk, sentence } from './engine.js';
import { openFailedRows } from './failed.js';
import { unknownFieldCheck } from './headers.js';
import { hashFile, Journal, type JournalKey, JournalUntrusted, journalDir } from './journal.js';
import { type BulkKind, identify, KINDS, kindTask, rowKey } from './kinds.js';
import { phoneRepair } from './phones.js';
import { remembered } from './remembered.js';
import { dryRunLines, reportFormat, resultWriter, reviewBlock, startProgress, summaryLine } from './report.js';
import { openRowSource, parseBulkFormat, type RawRow } from './source.js';

const DEFAULT_CONCURRENCY = 8;
const MAX_CONCURRENCY = 64;

export interface BulkCommandOptions {
  /** `--from`: a path, or `-` for stdin. */
  from: string;
  /** `--concurrency`, as typed. */
  concurrency?: string | undefined;
  /** `--format ndjson|csv`, as typed. */
  format?: string | undefined;
  /** `--product` (loans), as typed. */
  product?: string | undefined;
  /** `--failed FILE`: where the rejected rows go, as read. */
  failed?: string | undefined;
  /** `--ignore-journal`: a journal that cannot be trusted is set aside, and every row taken as new. */
  ignoreJournal?: boolean | undefined;
  /** `--strict`: a column (CSV) or key (NDJSON) that gives no field is refused, not ignored. */
  strict?: boolean | undefined;
  /** Approvals: the warnings accepted, each by its own flag (`--reapprove`…). */
  accepted?: AcceptedWarnings | undefined;
}

export function parseConcurrency(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_CONCURRENCY;
  const value = parseWholeNumber(raw, '--concurrency');
  if (value < 1 || value > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency must be from 1 to ${MAX_CONCURRENCY} (got ${JSON.stringify(raw)}).`);
  }
  return value;
}

export async function runBulkCreate(kind: BulkKind, options: BulkCommandOptions, deps: Deps): Promise<void> {
  const concurrency = parseConcurrency(options.concurrency);
  const format = parseBulkFormat(options.format);
  const output = reportFormat(chooseFormat(resolveOutputSettings(deps.globals, deps.env, deps.io)).name);
  const defaultProduct = options.product === undefined ? undefined : parseId(options.product, '--product');
  const settings = await deps.settings({ withKey: true });
  if (!settings.baseUrl) {
    throw new UsageError(
      'No API base URL is configured.',
      'Pass --base-url URL, set LOANCTL_BASE_URL, or add a profile: loanctl profile add NAME --base-url URL',
    );
  }
  if (!settings.apiKey && !settings.dryRun) {
    throw new AuthError(
      'No API key is configured.',
      'Add a profile (loanctl profile add NAME --base-url URL) or set LOANCTL_API_KEY.',
    );
  }
  const { fields, required, noun, made } = KINDS[kind];
  const strict = options.strict === true;
  const source = await openRowSource(options.from, { format, stdin: deps.io.stdin, fields, required, strict });
  const warn = (line: string) => deps.io.stderr.write(`loanctl: warning: ${line}\n`);
  const checkFields = unknownFieldCheck(source, { known: fields, strict, noun }, warn);
  const phones = phoneRepair(strict);
  const journal =
    options.from === '-' || settings.dryRun
      ? undefined
      : await openJournal(
          deps,
          {
            kind,
            content: await hashFile(options.from),
            path: options.from,
            baseUrl: settings.baseUrl,
            apiKey: settings.apiKey ?? '',
            product: defaultProduct ?? settings.productId,
          },
          options.ignoreJournal === true,
        );
  // After the journal: one that stops the run must not have emptied the --failed file of the last.
  const failedRows = options.failed === undefined ? undefined : await openFailedRows(options.failed, source);
  const pool = createPool(settings, Math.max(DEFAULT_CONCURRENCY, concurrency), deps.env);
  const clientOptions = { io: deps.io, now: deps.now, sleep: deps.sleep, transport: pool };
  const patient = createApiClient(settings, clientOptions);
  const quick = createApiClient(settings, { ...clientOptions, retry: { retries: 0 } });
  let serverDown = false;
  const api = (): ApiClient => (serverDown ? quick : patient);

  // Approvals are reviewed against the server under --dry-run too: a read changes nothing.
  const reader = settings.dryRun ? createApiClient({ ...settings, dryRun: false }, clientOptions) : undefined;
  const {
    task: base,
    checks,
    flush,
  } = await kindTask(
    kind,
    {
      api,
      read: () => reader ?? api(),
      defaultProduct: defaultProduct ?? settings.productId,
      dryRun: settings.dryRun,
      accepted: options.accepted ?? {},
      showReview: settings.dryRun ? (row, lines) => deps.io.stderr.write(reviewBlock(row, lines)) : undefined,
    },
    deps,
  );
  const inner = journal ? remembered(base, journal, identify, checks) : base;
  // Whether running the input again is safe: a file has its journal; users exist by e-mail, and
  // a loan request approved on a row's terms is that row done.
  const again =
    journal || kind !== 'loan'
      ? 'Running the file again is safe.'
      : 'This run has no journal (stdin, or no state directory): running it again would create its loan requests again.';
  /** Rows sent without an answer: they may exist, so they are not "rejected" (--failed) nor refused (journal). */
  const unknownRows = new Set<number>();

  const task: BulkTask<unknown> = {
    keyOf: (fields) => base.keyOf?.(fields) ?? rowKey(fields),
    prepare(fields, row) {
      checkFields(fields);
      phones.repair(fields);
      return inner.prepare(fields, row);
    },
    async execute(prepared, row) {
      const outcome = await inner.execute(prepared, row);
      serverDown = false;
      // Every row's line names its borrower as the file did, whatever path the row took.
      return { ...outcome, ...identify(prepared), message: outcome.message };
    },
    describeFailure(error, prepared, row) {
      const outcome = describe(error, prepared);
      if (outcome.unknown) unknownRows.add(row);
      else journal?.refused(row).catch(() => {});
      return outcome.result;
    },
    // Every row would fail the same way: a key refused, a usage error, a journal it cannot write.
    isFatal: (error) => error instanceof AuthError || error instanceof UsageError || error instanceof LocalFileError,
  };

  /** A failed row's result, and whether its outcome is unknown (sent, no answer). */
  function describe(error: unknown, prepared: unknown): { result: RowOutcome; unknown: boolean } {
    const result = describeError(error, prepared);
    return {
      result,
      unknown: unknownOutcome(error) !== undefined || (error instanceof NetworkError && !neverSent(error)),
    };
  }

  function describeError(error: unknown, prepared: unknown): RowOutcome {
    const who = identify(prepared);
    if (error instanceof DryRunComplete) return { status: 'success', ...who, message: 'Dry run: nothing was sent.' };
    if (error instanceof NetworkError && neverSent(error)) {
      serverDown = true;
      return {
        status: 'error',
        ...who,
        message: `Not sent: ${sentence(error.message)} ${again}`,
      };
    }
    const unknown = unknownOutcome(error);
    if (error instanceof NetworkError || unknown) {
      const check = unknown?.check ? ` (${unknown.check} shows whether it was)` : '';
      return {
        status: 'error',
        ...who,
        message:
          `${error instanceof NetworkError ? 'No answer: ' : ''}${sentence((error as Error).message)} ` +
          `This ${noun} may or may not have been ${made}${check}. ${again}`,
      };
    }
    const message = error instanceof LoanctlError ? error.message : `Unexpected error: ${String(error)}`;
    return { status: 'error', ...who, message: sentence(message) };
  }

  const results = settings.dryRun ? dryRunLines(deps.io.stderr) : resultWriter(deps.io.stdout, output);
  const write = async (result: RowResult, raw: RawRow) => {
    await results.write(result);
    if (result.status === 'error' && !unknownRows.has(result.row)) await failedRows?.write(raw);
  };

  const run = runBulk(source.rows, task, { concurrency, write });
  const progress = startProgress(deps.io.stderr, run.counts, source.progress);
  // Ctrl-C: read no more rows, drop the requests still out (each then reports that it may or may
  // not have been applied), write every result and the summary, and exit 130. A second Ctrl-C
  // finds no handler and ends the process at once.
  const interrupt = () => {
    run.cancel(new CancelledError('Cancelled (Ctrl-C).', INTERRUPTED_HINT));
    void patient.close({ abort: true });
    void quick.close({ abort: true });
    void pool.close({ abort: true });
  };
  process.once('SIGINT', interrupt);
  let summary: Awaited<typeof run.done>;
  try {
    summary = await run.done;
  } finally {
    process.off('SIGINT', interrupt);
    progress.stop();
    await Promise.all([results.flush(), flush?.()]);
    await pool.close();
    await journal?.close();
    await failedRows?.close();
  }

  const phoneWarning = phones.warning();
  if (phoneWarning) warn(phoneWarning);
  if (settings.dryRun) {
    deps.io.stderr.write(
      `${summary.rows} rows checked: ${summary.rows - summary.error} valid, ${summary.error} invalid (dry run: nothing was sent)\n`,
    );
  } else {
    deps.io.stderr.write(`${summaryLine(summary)}\n`);
  }
  if (summary.fatal !== undefined) {
    const fatal = summary.fatal as LoanctlError;
    fatal.message = `Stopped after ${summary.rows} row${summary.rows === 1 ? '' : 's'}: ${fatal.message}`;
    throw fatal;
  }
  if (summary.error > 0) {
    throw new PartialFailureError(
      settings.dryRun
        ? `${summary.error} of ${summary.rows} rows are invalid; fix them and run again.`
        : `${summary.error} of ${summary.rows} rows failed (their lines on stdout say why); running the file again is safe.`,
    );
  }
}

/**
 * The file's journal. One that cannot be trusted stops the run (exit 2), unless `ignore`; where
 * none can be kept (a read-only home), the run goes on without one, saying so.
 */
async function openJournal(deps: Deps, key: JournalKey, ignore: boolean): Promise<Journal | undefined> {
  const dir = journalDir(deps.env);
  const setAside = (path: string, reason: string) =>
    deps.io.stderr.write(
      `loanctl: ${reason.replace(/ Nothing was sent\.$/, '')} Set aside as ${path}; every row is new.\n`,
    );
  try {
    return await Journal.open(dir, key, { ignore, setAside });
  } catch (error) {
    if (error instanceof JournalUntrusted) throw error;
    deps.io.stderr.write(
      `loanctl: warning: no journal for this run: ${sentence((error as Error).message)} Running the file again will send every row again.\n`,
    );
    return undefined;
  }
}

const INTERRUPTED_HINT =
  'Rows with no result line were not sent; a row that says "No answer" may or may not have been applied. Running the file again is safe.';
