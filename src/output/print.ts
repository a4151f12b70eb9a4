/**
 * How the user and loan verbs print, on top of the core's renderers (src/output/render.ts):
 * a record, a list, a scalar, a stream of pages, and `loan show`'s composite view.
 */
import type { Deps } from '../deps.js';
import type { LoanView } from '../domain/loan-requests.js';
import type { ApiResult } from '../http/api-client.js';
import { COLUMNS, type ResourceKind } from './columns.js';
import { createRowWriter, render } from './render.js';
import { resolveOutputSettings } from './settings.js';

type Result = Pick<ApiResult, 'rawBody'>;

/** One record (or the payload of a reply that has none: a table then prints nothing). */
export async function printRecord(deps: Deps, result: Result, record: unknown, kind: ResourceKind): Promise<void> {
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  if ((record === null || record === undefined) && settings.output === 'table' && !settings.raw) {
    if (kind === 'employment') deps.io.stderr.write('No employment information yet.\n');
    return;
  }
  await render(record ?? null, { kind, envelope: result.rawBody }, deps);
}

/** A list of records; an empty one says so on stderr in a table. */
export async function printRows(
  deps: Deps,
  result: Result,
  rows: readonly unknown[],
  kind: ResourceKind,
): Promise<void> {
  await render(rows, { kind, envelope: result.rawBody }, deps);
}

/**
 * A single value (`true`/`false`, a progress marker). JSON prints it as JSON; a table prints it
 * as is (so `user exists` prints `true`, not `yes`); CSV has a header with `name`.
 */
export async function printScalar(deps: Deps, result: Result, value: string | boolean, name: string): Promise<void> {
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  if (settings.raw) return render(value, { envelope: result.rawBody }, deps);
  if (settings.output === 'table') {
    const { escapeControl } = await import('./escape.js');
    deps.io.stdout.write(`${escapeControl(String(value))}\n`);
    return;
  }
  if (settings.output === 'csv') {
    const { csvHeader, csvRow } = await import('./csv.js');
    deps.io.stdout.write(csvHeader([name]) + csvRow([value]));
    return;
  }
  await render(value, {}, deps);
}

/** Where `--all` writes each page as it arrives. */
export interface PageStream {
  /** Writes a page's rows; resolves once stdout has taken them (after `drain` when its buffer is full). */
  page(rows: readonly unknown[], result: ApiResult): Promise<void>;
  end(): Promise<void>;
}

/**
 * `--all`: rows stream as pages arrive; with `--raw`, each page's envelope as received, one per
 * line (NDJSON of envelopes, so a script can read every page's status and cursor).
 *
 * Backpressure: after a page, if stdout's buffer is over its high-water mark, `page` waits for
 * `drain`, so a slow reader (a pipe into a slow consumer) holds the walk back instead of loanctl
 * buffering the whole list in memory. The callers fetch the next page while waiting here
 * (openPageStream's callers prefetch one page ahead), so at most two pages are held at once.
 */
export async function openPageStream(deps: Deps, kind: ResourceKind): Promise<PageStream> {
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  const out = deps.io.stdout;
  const settle = async () => {
    if (out.writableNeedDrain) {
      const { drained } = await import('../bulk/drain.js');
      await drained(out);
    }
  };
  if (settings.raw) {
    return {
      page: async (_rows, result) => {
        out.write(`${JSON.stringify(JSON.parse(result.rawBody))}\n`);
        await settle();
      },
      end: async () => {},
    };
  }
  const writer = createRowWriter(kind, deps);
  return {
    page: async (rows) => {
      await writer.write(rows);
      await settle();
    },
    end: () => writer.end(),
  };
}

/**
 * `loan show`: JSON/NDJSON print `{loan_request, progress, bank_details, guarantors, employment}`
 * (`--fields` picks among those, dotted paths included, e.g. `loan_request.status`); `--raw`
 * prints the five envelopes under the same keys; CSV prints the loan request's row; a table
 * prints one section per part. In a table, `--fields` picks the loan request's rows only.
 */
export async function printLoanView(deps: Deps, view: LoanView, envelopes: Record<string, unknown>): Promise<void> {
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  if (settings.raw) return render(view, { envelope: envelopes }, deps);
  if (settings.output === 'csv') return render(view.loan_request, { kind: 'loanRequest', asList: true }, deps);
  if (settings.output !== 'table') return render(view, {}, deps);

  const loan = { ...view.loan_request, progress: view.progress || view.loan_request.progress };
  if (settings.fields) return render(loan, { kind: 'loanRequest' }, deps);

  const { listTable, detailTable } = await import('./table.js');
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: settings.color ? 1 : 0 });
  const color = settings.color;
  const width = settings.width;
  const out = deps.io.stdout;
  const heading = (text: string) => out.write(`\n${chalk.bold(text)}\n`);
  const none = (noun: string) => out.write(`(no ${noun})\n`);

  out.write(`${chalk.bold(`Loan request ${loan.id}`)}\n`);
  out.write(detailTable(COLUMNS.loanRequest.detail ?? COLUMNS.loanRequest.list, loan, { color, width }));

  heading(`Bank details (${view.bank_details.length})`);
  if (view.bank_details.length === 0) none('bank details');
  else out.write(listTable(COLUMNS.bankDetails.list, view.bank_details, { color, width }));

  heading(`Guarantors (${view.guarantors.length})`);
  if (view.guarantors.length === 0) none('guarantors');
  else out.write(listTable(COLUMNS.guarantor.list, view.guarantors, { color, width }));

  heading('Employment');
  if (!view.employment) none('employment information');
  else out.write(detailTable(COLUMNS.employment.detail ?? COLUMNS.employment.list, view.employment, { color, width }));
}
