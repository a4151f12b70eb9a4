/** The list pages: loan requests (the approval queue first) and borrowers, each paged, and the request log. */
import type { LoanRequestRow, UserRow } from '../repos/index.js';
import { money } from './approval.js';
import { type Html, html, queryString } from './html.js';
import { BASE } from './layout.js';
import { FILTER_VALUES, inQueue, type LoanFilters, type Page } from './queries.js';

/** One request of the sandbox's request log (issue 10), as the log gives it. */
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

function pager(pageNumber: number, hasNext: boolean, path: string, keep: Record<string, string | undefined>): Html {
  const link = (to: number, text: string) =>
    html`<a href="${BASE}${path}${queryString({ ...keep, page: to })}">${text}</a>`;
  return html`<nav class="pager" aria-label="Pages">${pageNumber > 1 && link(pageNumber - 1, '← Previous')}<span>Page ${pageNumber}</span>${hasNext && link(pageNumber + 1, 'Next →')}</nav>`;
}

function filterSelect(name: keyof LoanFilters, label: string, value: string | undefined): Html {
  return html`<label>${label}<select name="${name}"><option value="">any</option>${FILTER_VALUES[name].map(
    (choice) => html`<option${choice === value ? html` selected` : ''}>${choice}</option>`,
  )}</select></label>`;
}

export function loansPage(page: Page<LoanRequestRow>, filters: LoanFilters, pageNumber: number): Html {
  return html`<form method="get" action="${BASE}/loans" class="filters">
  ${filterSelect('status', 'Status', filters.status)}
  ${filterSelect('lender_status', 'Lender status', filters.lender_status)}
  ${filterSelect('user_status', 'User status', filters.user_status)}
  <div><button type="submit">Filter</button></div>
</form>
<p class="hint">Submitted loan requests waiting for approval come first (highlighted).</p>
<div class="table"><table>
<thead><tr><th>ID</th><th>Borrower</th><th class="num">Amount</th><th>Purpose</th><th>Status</th><th>Lender status</th><th>User status</th><th>Product</th><th></th></tr></thead>
<tbody>${page.rows.map(
    (row) => html`<tr${inQueue(row) ? html` class="queue"` : ''}>
<td><a href="${BASE}/loans/${row.id}">${row.id}</a></td><td>${row.fullname}</td><td class="num">${money(row.amount)}</td>
<td>${row.purpose}</td><td>${row.status}</td><td>${row.lender_status}</td><td>${row.user_status}</td><td>${row.product_name}</td>
<td>${inQueue(row) && html`<a href="${BASE}/loans/${row.id}/approve" aria-label="Approve loan request ${row.id}">Approve</a>`}</td></tr>`,
  )}</tbody></table></div>
${page.rows.length === 0 && html`<p>No loan requests match.</p>`}
${pager(pageNumber, page.hasNext, '/loans', { ...filters })}`;
}

export function borrowersPage(page: Page<UserRow>, email: string, pageNumber: number): Html {
  return html`<form method="get" action="${BASE}/borrowers" class="filters" role="search">
  <label>E-mail contains<input type="search" name="email" value="${email}" autocomplete="off"></label>
  <div><button type="submit">Search</button></div>
</form>
<div class="table"><table>
<thead><tr><th>ID</th><th>Name</th><th>E-mail</th><th>Phone</th><th>Reference</th><th>Created</th></tr></thead>
<tbody>${page.rows.map(
    (row) =>
      html`<tr><td>${row.id}</td><td>${row.firstname} ${row.lastname}</td><td>${row.email}</td><td>${row.phone}</td><td>${row.reference}</td><td>${row.created_at}</td></tr>`,
  )}</tbody></table></div>
${page.rows.length === 0 && html`<p>No borrowers match.</p>`}
${pager(pageNumber, page.hasNext, '/borrowers', { email })}`;
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
