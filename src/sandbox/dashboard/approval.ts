/**
 * The approval form: the fields of the contract's approval body (its row's `body` in
 * src/contract/table/loan-requests.ts), read from the posted form into the same typed body the action endpoint receives, and a preview
 * of the repayment schedule those terms give (src/repayment, the arithmetic the endpoint stores
 * `estimated_repayment` from).
 */
import { bodySchema } from '../../contract/field-schemas.js';
import { BODY_FIELDS, type BodyOf } from '../../contract/fields.js';
import { isApproved } from '../../contract/states.js';
import {
  FREQUENCIES,
  type Frequency,
  frequencyWord,
  isOneOf,
  RATE_TYPES,
  TENURED_IN,
} from '../../contract/vocabulary.js';
import { UsageError } from '../../errors.js';
import { type RateNames, rateFlag } from '../../input/annual-rate.js';
import { type Column, SCHEDULE_COLUMNS } from '../../output/columns.js';
import { formatCell } from '../../output/format.js';
import { formatMoney as money } from '../../output/values.js';
import { ANNUAL_RATE_RULE } from '../../repayment/annual-rate.js';
import {
  buildSchedule,
  type RepaymentTerms,
  RepaymentTermsError,
  repaymentTermsFromApproval,
} from '../../repayment/index.js';
import { storedFrequency, storedRepaymentTerms } from '../../repayment/stored.js';
import type { LoanRequestRow } from '../repos/index.js';
import { describeIssues, invalidFieldsMessage } from '../validation.js';
import { type Html, html } from './html.js';
import { BASE, csrfField } from './layout.js';

export type Form = Record<string, string | undefined>;
const NUMERIC = new Set(['money', 'rate', 'count', 'whole']);

/**
 * The posted form as the approval body: numbers where the field is a number (text that is not one
 * stays text, for the schema to name), a checkbox as true/false, empty optional fields left out.
 * Throws a FormProblem when the yearly rate cannot stand with the others (as `loan approve` refuses it).
 */
export function approvalBodyFromForm(form: Form): Record<string, unknown> {
  form = withRateFromAnnual(form);
  const body: Record<string, unknown> = {};
  for (const field of BODY_FIELDS.approveLoanRequest) {
    const text = form[field.name]?.trim() ?? '';
    if (field.kind === 'bool') body[field.name] = text !== '';
    else if (text === '') continue;
    else if (NUMERIC.has(field.kind)) body[field.name] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    else body[field.name] = form[field.name];
  }
  return body;
}

/** Terms the form cannot send: one line, what is wrong and what to do. */
export class FormProblem extends Error {
  override name = 'FormProblem';
}

/** The form's fields as `rateFlag` names them in what it says. */
const FORM_NAMES: RateNames = {
  rate: 'rate',
  annualRate: 'annual_rate',
  tenuredIn: 'tenured_in',
  rateType: 'rate_type',
};

/**
 * The rate the API takes, from the form's yearly rate by the CLI's own rule
 * (src/input/annual-rate.ts: the yearly rate per tenure unit, never with a rate per unit,
 * never for a fixed amount); the form as it is when no yearly rate is given.
 */
function withRateFromAnnual(form: Form): Form {
  const given = (name: string) => {
    const text = form[name]?.trim() ?? '';
    return text === '' ? undefined : text;
  };
  if (given('annual_rate') === undefined) return form;
  try {
    const rate = rateFlag(
      {
        rate: given('rate'),
        annualRate: given('annual_rate'),
        tenuredIn: given('tenured_in'),
        rateType: given('rate_type'),
      },
      undefined,
      FORM_NAMES,
    );
    return { ...form, rate };
  } catch (error) {
    if (error instanceof UsageError) {
      throw new FormProblem(error.hint ? `${error.message} ${error.hint}` : error.message);
    }
    throw error;
  }
}

/** The form's values for a loan request: what was posted, else its stored terms, else the amount asked for. */
export function formValues(loan: LoanRequestRow, posted?: Form): Form {
  if (posted) return posted;
  const terms = isApproved(loan) ? approvedTerms(loan) : undefined;
  if (terms !== undefined) {
    return {
      approved_amount: String(terms.principal),
      rate: String(terms.rate),
      tenure: String(terms.tenure),
      tenured_in: terms.tenured_in,
      rate_type: terms.rate_type,
      frequency: terms.frequency,
      grace_period: String(terms.grace_period),
      exclude_weekends: terms.exclude_weekends ? 'on' : undefined,
      note: loan.note ?? undefined,
    };
  }
  return {
    approved_amount: String(loan.amount),
    tenured_in: 'months',
    rate_type: 'simple-interest',
    frequency: 'monthly',
  };
}

/**
 * An approved loan's terms read as `loan schedule ID` reads them (src/repayment/stored.ts): the
 * frequency whose schedule repays its estimated repayment; the one the sandbox stored only when
 * the figures cannot tell (the API does not send it).
 */
function approvedTerms(loan: LoanRequestRow): RepaymentTerms | undefined {
  const found = storedFrequency(loan, loan.approved_at ?? '');
  const frequency = Array.isArray(found) ? (loan.frequency as Frequency) : found;
  return storedRepaymentTerms(loan, loan.approved_at ?? '', frequency);
}

function select(name: string, label: string, choices: readonly string[], value: string | undefined): Html {
  return html`<label>${label}<select name="${name}" id="${name}">${choices.map(
    (choice) =>
      html`<option value="${choice}"${choice === value ? html` selected` : ''}>${isOneOf(choice, FREQUENCIES) ? frequencyWord(choice) : choice}</option>`,
  )}</select></label>`;
}

function numberField(name: string, label: string, value: string | undefined, hint: string | Html, step = 'any'): Html {
  return html`<label>${label}<input type="number" inputmode="decimal" step="${step}" min="0" name="${name}" id="${name}" value="${value ?? ''}"><span class="hint">${hint}</span></label>`;
}

export function approvalForm(loan: LoanRequestRow, values: Form, csrf: string): Html {
  const unit = values.tenured_in ?? 'months';
  return html`<form method="post" action="${BASE}/loans/${loan.id}/approve" class="grid" id="approval" data-preview="${BASE}/loans/${loan.id}/preview">
  ${csrfField(csrf)}
  ${numberField('approved_amount', 'Approved amount', values.approved_amount, `at most ${money(loan.amount)}`, '0.01')}
  ${numberField('rate', 'Rate', values.rate, html`% per <span id="rate-unit">${unit.replace(/s$/, '')}</span> (fixed-amount: the interest in currency)`)}
  ${numberField('annual_rate', 'Or a yearly rate', values.annual_rate, `% a year, when Rate is empty: sent per unit (${ANNUAL_RATE_RULE})`)}
  ${numberField('tenure', 'Tenure', values.tenure, 'whole number of units', '1')}
  ${select('tenured_in', 'Tenure unit', TENURED_IN, values.tenured_in)}
  ${select('rate_type', 'Rate type', RATE_TYPES, values.rate_type)}
  ${select('frequency', 'Repayment frequency', FREQUENCIES, values.frequency)}
  ${numberField('grace_period', 'Grace period (days)', values.grace_period, 'days before the first instalment', '1')}
  <label class="check"><input type="checkbox" name="exclude_weekends" id="exclude_weekends"${values.exclude_weekends ? html` checked` : ''}>Move due dates off weekends</label>
  <label>Note<textarea name="note" id="note" rows="2">${values.note ?? ''}</textarea></label>
  <div><button type="submit" id="approve" name="intent" value="approve">Approve</button> <button type="submit" id="show-preview" name="intent" value="preview">Preview</button></div>
</form>`;
}

const PREVIEW_ROWS = 24;

/** An instalment's columns are `loan schedule`'s (src/output/schedule.ts); money is right-aligned. */
const numeric = (column: Column) => (column.format === 'money' ? html` class="num"` : '');

/** The schedule the form's terms give (starting `start`), or what is wrong with them. */
export function schedulePreview(form: Form, start: Date): Html {
  let raw: Record<string, unknown>;
  try {
    raw = approvalBodyFromForm(form);
  } catch (error) {
    if (error instanceof FormProblem) return html`<p class="hint">${error.message}</p>`;
    throw error;
  }
  const parsed = bodySchema('approveLoanRequest').safeParse(raw);
  if (!parsed.success) {
    return html`<p class="hint">${invalidFieldsMessage(describeIssues(parsed.error.issues, raw, 'body'))}</p>`;
  }
  try {
    const schedule = buildSchedule(repaymentTermsFromApproval(parsed.data as BodyOf<'approveLoanRequest'>, start));
    const more = schedule.instalments.length - PREVIEW_ROWS;
    return html`<p>Total repayment <strong>${money(schedule.total_repayment)}</strong> (interest ${money(schedule.total_interest)}), ${schedule.instalments.length} instalments, the last on ${schedule.maturity_date}.</p>
<div class="table"><table><thead><tr>${SCHEDULE_COLUMNS.map((column) => html`<th${numeric(column)}>${column.label}</th>`)}</tr></thead><tbody>
${schedule.instalments
  .slice(0, PREVIEW_ROWS)
  .map(
    (row) =>
      html`<tr>${SCHEDULE_COLUMNS.map((column) => html`<td${numeric(column)}>${formatCell((row as Record<string, unknown>)[column.key], column.format)}</td>`)}</tr>`,
  )}</tbody></table></div>${more > 0 ? html`<p class="hint">and ${more} more instalments</p>` : ''}`;
  } catch (error) {
    if (error instanceof RepaymentTermsError) return html`<p class="hint">${error.problems.join('; ')}</p>`;
    throw error;
  }
}

/**
 * The live preview: when a field changes, the preview fragment is fetched for the form's values
 * and put in place of the last one (the Preview button posts the form to show it without script). Served as a
 * file so the pages' Content-Security-Policy can forbid inline script.
 */
export const PREVIEW_SCRIPT = `
const form = document.getElementById('approval');
const target = document.getElementById('preview');
if (form && target) {
  let timer;
  const refresh = () => {
    const values = new URLSearchParams(new FormData(form));
    values.delete('token');
    fetch(form.dataset.preview + '?' + values, { credentials: 'same-origin' })
      .then((reply) => (reply.ok ? reply.text() : Promise.reject(reply.status)))
      .then((fragment) => { target.innerHTML = fragment; })
      .catch(() => {});
  };
  form.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(refresh, 250); });
  form.addEventListener('change', refresh);
  // The rate is per tenure unit: its label follows the unit chosen.
  const unit = document.getElementById('rate-unit');
  const tenuredIn = document.getElementById('tenured_in');
  tenuredIn.addEventListener('change', () => { unit.textContent = tenuredIn.value.replace(/s$/, ''); });
}
`;
