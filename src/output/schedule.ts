/**
 * Showing a repayment schedule: the human view (a line saying what the terms are, the instalment
 * table with a totals row, and a closing line), and the script formats.
 *
 * - `loan schedule` calls renderSchedule: table on a terminal; `-o json` prints the Schedule
 *   object unchanged; `-o ndjson` one instalment a line; `-o csv` one row an instalment.
 * - `loan approve --preview` calls renderSchedulePreview: always the human view, on stderr, so the
 *   approved loan request that approve prints on stdout stays clean JSON for a script.
 */
import type { OutputStream } from '../basics.js';
import { frequencyWord } from '../contract/vocabulary.js';
import type { RepaymentTerms, Schedule } from '../repayment/index.js';
import { type Column, SCHEDULE_COLUMNS } from './columns.js';
import { type OutputDeps, openOutput } from './output.js';
import { colorEnabled } from './settings.js';
import { formatMoney, formatRate, UNIT_SINGULAR } from './values.js';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const RATE_TYPE_WORDS: Record<RepaymentTerms['rate_type'], string> = {
  'simple-interest': 'simple interest',
  'compound-interest': 'compound interest',
  'fixed-amount': 'fixed amount',
};

/**
 * `loan schedule`'s output, in the format of `-o` (table on a terminal, JSON otherwise): JSON the
 * Schedule object (with `--fields`, the instalments' picked fields), NDJSON and CSV one instalment
 * a line, a table the human view. `--fields` names the instalment columns in every format.
 */
export async function renderSchedule(schedule: Schedule, terms: RepaymentTerms, deps: OutputDeps): Promise<void> {
  const output = await openOutput(deps, { names: () => SCHEDULE_COLUMNS.map((column) => column.key) });
  await output.composite({
    whole: schedule,
    lines: schedule.instalments,
    picked: schedule.instalments,
    rows: schedule.instalments,
    table: (view) => scheduleText(schedule, terms, view),
  });
}

/**
 * The schedule that approving on `terms` would give, for a person to read before confirming:
 * written to `stream` (default stderr, where prompts and notices go), whatever `-o` says.
 */
export async function renderSchedulePreview(
  schedule: Schedule,
  terms: RepaymentTerms,
  deps: OutputDeps,
  stream: OutputStream = deps.io.stderr,
): Promise<void> {
  stream.write(await scheduleText(schedule, terms, { color: colorEnabled(deps.globals, deps.env, stream) }));
}

/** The human view: what the terms are, the table with its totals row, and the closing line. */
async function scheduleText(
  schedule: Schedule,
  terms: RepaymentTerms,
  options: { color: boolean; fields?: readonly string[] | undefined },
): Promise<string> {
  const { listTable } = await import('./table.js');
  const columns = pickColumns(options.fields);
  const rows: Record<string, unknown>[] = schedule.instalments.map((instalment) => ({
    ...instalment,
    due_date: withWeekday(instalment.due_date),
  }));
  rows.push({
    due_date: 'Total',
    principal: schedule.total_principal,
    interest: schedule.total_interest,
    total: schedule.total_repayment,
  });
  const count = schedule.instalments.length;
  return [
    `${describeTerms(terms)}\n`,
    '\n',
    listTable(columns, rows, { color: options.color }),
    '\n',
    `${count} instalment${count === 1 ? '' : 's'}; the last is due ${withWeekday(schedule.maturity_date)}. ` +
      `Repayment ${formatMoney(schedule.total_repayment)}, of which interest ${formatMoney(schedule.total_interest)}.\n`,
  ].join('');
}

/**
 * The terms in a sentence or two: `Loan of 100,000.00 at 5% a month (simple interest) over 3
 * months, repaid monthly. Starts 2025-01-01 Wed.`
 */
export function describeTerms(terms: RepaymentTerms): string {
  const start = (terms.start ?? new Date()).toISOString().slice(0, 10);
  return `Loan of ${summariseTerms(terms)}. Starts ${withWeekday(start)}.`;
}

/**
 * `100,000.00 at 5 % per month (simple interest) over 3 months, repaid monthly`, then `, 10 days'
 * grace` and `, weekdays only` when set: the one phrase for the terms, in the schedule's first line
 * and in the approval question of `loan approve` and `loan new`, so what is confirmed is all of it.
 */
export function summariseTerms(terms: RepaymentTerms): string {
  const rate =
    terms.rate === 0
      ? 'no interest'
      : terms.rate_type === 'fixed-amount'
        ? `a fixed interest of ${formatMoney(terms.rate)}`
        : `${formatRate(terms)} (${RATE_TYPE_WORDS[terms.rate_type]})`;
  const tenure = `${terms.tenure} ${terms.tenure === 1 ? UNIT_SINGULAR[terms.tenured_in] : terms.tenured_in}`;
  const frequency = frequencyWord(terms.frequency);
  const grace = terms.grace_period
    ? `, ${terms.grace_period} ${terms.grace_period === 1 ? "day's" : "days'"} grace`
    : '';
  const weekdays = terms.exclude_weekends ? ', weekdays only' : '';
  return `${formatMoney(terms.principal)} at ${rate} over ${tenure}, repaid ${frequency}${grace}${weekdays}`;
}

/** `2025-02-01` → `2025-02-01 Sat`. */
function withWeekday(isoDate: string): string {
  const day = new Date(`${isoDate}T00:00:00Z`).getUTCDay();
  return `${isoDate} ${WEEKDAYS[day] ?? ''}`.trimEnd();
}

/** The columns `--fields` names (checked against SCHEDULE_COLUMNS when the output was opened). */
function pickColumns(fields: readonly string[] | undefined): Column[] {
  if (!fields) return [...SCHEDULE_COLUMNS];
  return SCHEDULE_COLUMNS.filter((column) => fields.includes(column.key)).sort(
    (a, b) => fields.indexOf(a.key) - fields.indexOf(b.key),
  );
}
