/**
 * `loan show`'s composite view, in each shape a format prints (./formats/formatter.ts): JSON and
 * NDJSON print `{loan_request, progress, bank_details, guarantors, employment}`; `--fields` picks
 * among those (dotted paths included, e.g. `loan_request.status`) and the loan request's own
 * fields; CSV prints the loan request's row; a table prints one section per part, or with
 * `--fields` the loan request's rows only.
 */
import type { LoanView } from '../domain/loan-requests.js';
import { COLUMNS } from './columns.js';
import { loanViewFieldNames } from './field-names.js';
import type { Composite, View } from './formats/formatter.js';
import type { OutputShape } from './output.js';
import { pickColumns } from './pick.js';

/** What `loan show` opens its Output with. */
export const LOAN_VIEW_OUTPUT: OutputShape = { kind: 'loanRequest', names: loanViewFieldNames, sends: true };

export function loanViewComposite(view: LoanView): Composite {
  const loan = { ...view.loan_request, progress: view.progress || view.loan_request.progress };
  // The loan request's fields by name, and the parts by theirs: what --fields picks from.
  const record: Record<string, unknown> = { ...loan, ...view, progress: loan.progress };
  return {
    whole: view,
    lines: [view],
    picked: record,
    rows: [record],
    table: (shown) => (shown.fields ? fieldsTable(record, shown) : sections(view, loan, shown)),
  };
}

async function fieldsTable(record: Record<string, unknown>, shown: View): Promise<string> {
  const { detailTable } = await import('./table.js');
  return detailTable(pickColumns('loanRequest', shown.fields, [record], 'detail'), record, {
    color: shown.color,
    width: shown.width,
  });
}

async function sections(view: LoanView, loan: Record<string, unknown>, shown: View): Promise<string> {
  const { listTable, detailTable } = await import('./table.js');
  const { Chalk } = await import('chalk');
  const color = shown.color;
  const fit = { color, width: shown.width };
  const chalk = new Chalk({ level: color ? 1 : 0 });
  const heading = (text: string) => `\n${chalk.bold(text)}\n`;
  const none = (noun: string) => `(no ${noun})\n`;
  const parts = [
    `${chalk.bold(`Loan request ${loan.id}`)}\n`,
    detailTable(COLUMNS.loanRequest.detail ?? COLUMNS.loanRequest.list, loan, fit),
    heading(`Bank details (${view.bank_details.length})`),
    view.bank_details.length === 0 ? none('bank details') : listTable(COLUMNS.bankDetails.list, view.bank_details, fit),
    heading(`Guarantors (${view.guarantors.length})`),
    view.guarantors.length === 0 ? none('guarantors') : listTable(COLUMNS.guarantor.list, view.guarantors, fit),
    heading('Employment'),
    view.employment
      ? detailTable(COLUMNS.employment.detail ?? COLUMNS.employment.list, view.employment, fit)
      : none('employment information'),
  ];
  return parts.join('');
}
