/**
 * A profile's `dashboard-url`: the lender dashboard's page of one loan request, as a template with
 * `{id}` where the loan request's id goes (`loanctl loan open`). The same rule as the base URL:
 * https, or plain http to a loopback host.
 */
import { UsageError } from '../errors.js';
import { checkBaseUrl } from './base-url.js';

const LOAN_ID_PLACEHOLDER = '{id}';

/** The template as given, or a UsageError saying what is wrong with it. */
export function checkDashboardUrl(template: string, source = '--dashboard-url'): string {
  const trimmed = template.trim();
  if (!trimmed.includes(LOAN_ID_PLACEHOLDER)) {
    throw new UsageError(
      `${source}: "${template}" has no ${LOAN_ID_PLACEHOLDER} for the loan request's id.`,
      'e.g. --dashboard-url "https://lender.example.com/loans/{id}"',
    );
  }
  checkBaseUrl(dashboardUrlFor(trimmed, 1), source);
  return trimmed;
}

/** The page of loan request `id`. */
export function dashboardUrlFor(template: string, id: number): string {
  return template.replaceAll(LOAN_ID_PLACEHOLDER, String(id));
}
