/**
 * The list pages: the queue (waiting for approval, oldest submission first), loan requests and
 * borrowers (newest first), each paged by keyset, and the request log. Values are shown as the
 * CLI's tables show them (src/output/values.ts).
 */
import { isWaiting, type Stage, stageOf, stageWords } from '../../contract/states.js';
import { formatMoney, formatTimestamp } from '../../output/values.js';
import type { LoanRequestRow, UserRow } from '../repos/index.js';
import { type Html, html, queryString } from './html.js';
import { BASE } from './layout.js';
import { FILTER_VALUES, type LoanFilters, type Page } from './queries.js';

/** One request of the sandbox's request log, as the log gives it. */
export interface RequestLogEntry {
  at: string;
  method: string;
  path: string;
  /** The HTTP status. */
  status: number;
  /** The envelope's status, or why the request was refused. */
  outcome: string;
  ms: number;
}

/** The caller's most recent requests, newest first; absent where the sandbox keeps no log. */
export type RequestLogSource = (orgId: number, limit: number) => RequestLogEntry[];

/** To the first page, and to the next when one follows (keyset: `after` the last row shown). */
function pager(
  after: number | undefined,
  next: number | undefined,
  path: string,
  keep: Record<string, string | undefined>,
): Html {
  const link = (to: number | undefined, text: string) =>
    html`<a href="${BASE}${path}${queryString({ ...keep, after: to })}">${text}</a>`;
  return html`<nav class="pager" aria-label="Pages">${after !== undefined && link(undefined, '← First page')}${next !== undefined && link(next, 'Next →')}</nav>`;
}

function filterSelect(name: keyof LoanFilters, label: string, value: string | undefined): Html {
  const words = (choice: string) => (name === 'stage' ? stageWords(choice as Stage) : choice);
  return html`<label>${label}<select name="${name}"><option value="">any</option>${FILTER_VALUES[name].map(
    (choice) => html`<option value="${choice}"${choice === value ? html` selected` : ''}>${words(choice)}</option>`,
  )}</select></label>`;
}

/** A loan request's row; one waiting for approval is highlighted, with its Approve link. */
function loanRow(row: LoanRequestRow): Html {
  const waiting = isWaiting(row);
  return html`<tr${waiting ? html` class="queue"` : ''}>
<td><a href="${BASE}/loans/${row.id}">${row.id}</a></td><td>${row.fullname}</td><td class="num">${formatMoney(row.amount)}</td>
<td>${row.purpose}</td><td>${stageWords(stageOf(row))}</td><td>${row.status}</td><td>${row.lender_status}</td><td>${row.user_status}</td><td>${formatTimestamp(row.submitted_at ?? '')}</td><td>${row.product_name}</td>
<td>${waiting && html`<a href="${BASE}/loans/${row.id}/approve" aria-label="Approve loan request ${row.id}">Approve</a>`}</td></tr>`;
}

function loanTable(rows: LoanRequestRow[]): Html {
  return html`<div class="table"><table>
<thead><tr><th>ID</th><th>Borrower</th><th class="num">Amount</th><th>Purpose</th><th>Stage</th><th>Status</th><th>Lender status</th><th>User status</th><th>Submitted</th><th>Product</th><th></th></tr></thead>
<tbody>${rows.map(loanRow)}</tbody></table></div>`;
}

export function loansPage(page: Page<LoanRequestRow>, filters: LoanFilters, after: number | undefined): Html {
  return html`<form method="get" action="${BASE}/loans" class="filters">
  ${filterSelect('stage', 'Stage', filters.stage)}
  ${filterSelect('status', 'Status', filters.status)}
  ${filterSelect('lender_status', 'Lender status', filters.lender_status)}
  ${filterSelect('user_status', 'User status', filters.user_status)}
  <div><button type="submit">Filter</button></div>
</form>
<p class="hint">Newest first. Loan requests waiting for approval are highlighted; <a href="${BASE}/queue">the queue</a> lists them oldest submission first.</p>
${loanTable(page.rows)}
${page.rows.length === 0 && html`<p>No loan requests match.</p>`}
${pager(after, page.next, '/loans', { ...filters })}`;
}

export function queuePage(page: Page<LoanRequestRow>, after: number | undefined): Html {
  return html`<p class="hint">Submitted by the borrower and not yet approved, the one waiting longest first (as <code>loanctl loan queue</code> lists them).</p>
${loanTable(page.rows)}
${page.rows.length === 0 && html`<p>No loan requests are waiting for approval.</p>`}
${pager(after, page.next, '/queue', {})}`;
}

export function borrowersPage(page: Page<UserRow>, search: string, after: number | undefined): Html {
  return html`<form method="get" action="${BASE}/borrowers" class="filters" role="search">
  <label>E-mail starts with, or phone<input type="search" name="search" value="${search}" autocomplete="off"></label>
  <div><button type="submit">Search</button></div>
</form>
<p class="hint">All borrowers, newest first. A phone, in any form (<code>0803 153 5642</code>, <code>+2348031535642</code>, <code>8031535642</code>), finds those with it, newest first; other text finds those whose e-mail starts with it, in the e-mail's order.</p>
<div class="table"><table>
<thead><tr><th>ID</th><th>Name</th><th>E-mail</th><th>Phone</th><th>Reference</th><th>Created</th></tr></thead>
<tbody>${page.rows.map(
    (row) =>
      html`<tr><td>${row.id}</td><td>${row.firstname} ${row.lastname}</td><td>${row.email}</td><td>${row.phone}</td><td>${row.reference}</td><td>${formatTimestamp(row.created_at)}</td></tr>`,
  )}</tbody></table></div>
${page.rows.length === 0 && html`<p>No borrowers match.</p>`}
${pager(after, page.next, '/borrowers', { search })}`;
}

export const LOG_ROWS = 100;

export function logPage(entries: RequestLogEntry[] | undefined): Html {
  if (entries === undefined) {
    return html`<p class="notice error" role="status">The request log is not available in this sandbox: it keeps no log of requests.</p>`;
  }
  return html`<p class="hint">Your organisation's last ${LOG_ROWS} API requests, newest first (the log is written a moment after each reply; <code>loanctl sandbox logs</code> shows the bodies).</p>
<div class="table"><table><thead><tr><th>At</th><th>Method</th><th>Path</th><th class="num">HTTP</th><th>Outcome</th><th class="num">ms</th></tr></thead>
<tbody>${entries.map(
    (entry) =>
      html`<tr><td>${entry.at}</td><td>${entry.method}</td><td>${entry.path}</td><td class="num">${entry.status}</td><td>${entry.outcome}</td><td class="num">${entry.ms}</td></tr>`,
  )}</tbody></table></div>${entries.length === 0 && html`<p>No requests yet.</p>`}`;
}
