/** One loan request with everything attached, and its approval form with the schedule preview. */

import type { LoanRequestRow, Repos } from '../repos/index.js';
import * as serialize from '../serialize.js';
import { approvalForm, type Form, formValues, schedulePreview } from './approval.js';
import { type Html, html } from './html.js';
import { BASE, details } from './layout.js';
import { inQueue } from './queries.js';

function section(title: string, content: Html | false): Html {
  return html`<section><h2>${title}</h2>${content || html`<p class="hint">None.</p>`}</section>`;
}

function each(rows: Record<string, unknown>[]): Html | false {
  return rows.length > 0 && html`${rows.map((row) => details(row))}`;
}

export function loanPage(repos: Repos, loan: LoanRequestRow): Html {
  const { terms, ...summary } = serialize.loanRequest(loan);
  const business = repos.attachments.business(loan.id);
  const employment = repos.attachments.employment(loan.id);
  const approveText = loan.lender_status === 'approved' ? 'Change the approved terms' : 'Review and approve';
  return html`<p>${inQueue(loan) ? 'Waiting for approval. ' : ''}<a href="${BASE}/loans/${loan.id}/approve">${approveText}</a></p>
${section('Loan request', details(summary))}
${section('Progress', details({ progress: loan.progress ?? 'new' }))}
${section('Terms', loan.lender_status === 'approved' && details({ ...terms, frequency: loan.frequency }))}
${section('Bank details', each(repos.attachments.bankDetails(loan.id).map(serialize.bankDetails)))}
${section('Business', business !== undefined && details(serialize.business(business)))}
${section('Employment', employment !== undefined && details(serialize.employment(employment)))}
${section('Guarantors', each(repos.attachments.guarantors(loan.id).map(serialize.guarantor)))}
${section('Documents', each(repos.attachments.documents(loan.id).map(serialize.document)))}`;
}

export function approvePage(loan: LoanRequestRow, csrf: string, now: Date, posted?: Form, problem?: Html): Html {
  const values = formValues(loan, posted);
  return html`<p><a href="${BASE}/loans/${loan.id}">${loan.reference}</a>: ${loan.fullname} asks for ${loan.amount} (${loan.purpose}).
${loan.lender_status === 'approved' ? 'Already approved: approving again replaces the terms.' : ''}</p>
${problem}
${approvalForm(loan, values, csrf)}
<section aria-live="polite"><h2>Repayment schedule</h2><div id="preview">${schedulePreview(values, now)}</div></section>
<script src="${BASE}/assets/preview.js" defer></script>`;
}
