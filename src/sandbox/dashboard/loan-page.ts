/**
 * One loan request with everything attached, and its approval form with the schedule preview.
 * Every section is label/value rows made by the function that makes `loan show`'s
 * (src/output/format.ts detailRows) from the same columns and the records the API sends
 * (../serialize.ts): the page and the command show the same labels and the same values.
 */

import { isApproved, isWaiting } from '../../contract/states.js';
import { COLUMNS, type Column } from '../../output/columns.js';
import { detailRows } from '../../output/format.js';
import { formatMoney } from '../../output/values.js';
import { PROGRESS } from '../handlers/common.js';
import type { LoanRequestRow, Repos } from '../repos/index.js';
import * as serialize from '../serialize.js';
import { approvalForm, type Form, formValues, schedulePreview } from './approval.js';
import { type Html, html } from './html.js';
import { BASE } from './layout.js';

function section(title: string, content: Html | false): Html {
  return html`<section><h2>${title}</h2>${content || html`<p class="hint">None.</p>`}</section>`;
}

/** A record as `loan show` prints it: one row per column, the label and the value shown. */
function rows(columns: readonly Column[], record: object): Html {
  return html`<dl>${detailRows(columns, record as Record<string, unknown>).map(
    ([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`,
  )}</dl>`;
}

function each(columns: readonly Column[], records: object[]): Html | false {
  return records.length > 0 && html`${records.map((record) => rows(columns, record))}`;
}

/** The loan request as `loan show` composes it: its progress is the progress operation's answer. */
function withProgress(loan: LoanRequestRow): object {
  return { ...serialize.loanRequest(loan), progress: loan.progress ?? PROGRESS.none };
}

export function loanPage(repos: Repos, loan: LoanRequestRow): Html {
  const business = repos.attachments.business(loan.id);
  const employment = repos.attachments.employment(loan.id);
  const approveText = isApproved(loan) ? 'Change the approved terms' : 'Review and approve';
  return html`<p>${isWaiting(loan) ? 'Waiting for approval. ' : ''}<a href="${BASE}/loans/${loan.id}/approve">${approveText}</a></p>
${section('Loan request', rows(COLUMNS.loanRequest.detail ?? COLUMNS.loanRequest.list, withProgress(loan)))}
${section('Bank details', each(COLUMNS.bankDetails.list, repos.attachments.bankDetails(loan.id).map(serialize.bankDetails)))}
${section('Guarantors', each(COLUMNS.guarantor.list, repos.attachments.guarantors(loan.id).map(serialize.guarantor)))}
${section('Employment', employment !== undefined && rows(COLUMNS.employment.detail ?? COLUMNS.employment.list, serialize.employment(employment)))}
${section('Business', business !== undefined && rows(COLUMNS.business.list, serialize.business(business)))}
${section('Documents', each(COLUMNS.document.list, repos.attachments.documents(loan.id).map(serialize.document)))}`;
}

export function approvePage(loan: LoanRequestRow, csrf: string, now: Date, posted?: Form, problem?: Html): Html {
  const values = formValues(loan, posted);
  return html`<p><a href="${BASE}/loans/${loan.id}">${loan.reference}</a>: ${loan.fullname} asks for ${formatMoney(loan.amount)} (${loan.purpose}).
${isApproved(loan) ? 'Already approved: approving again replaces the terms.' : ''}</p>
${problem}
${approvalForm(loan, values, csrf)}
<section aria-live="polite"><h2>Repayment schedule</h2><div id="preview">${schedulePreview(values, now)}</div></section>
<script src="${BASE}/assets/preview.js" defer></script>`;
}
