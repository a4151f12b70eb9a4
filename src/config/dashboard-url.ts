/**
 * A profile's `dashboard-url`: the lender dashboard's page of one loan request, as a template with
 * `{id}` where the loan request's id goes (`loanctl loan open`), and the page URLs loanctl hands
 * the system's browser opener. A URL is only ever stored or opened as the URL parser writes it
 * back: https, or plain http to a loopback host, with no user name or password and no control
 * characters or spaces — never `javascript:`, `file:`, an option of the opener (`--version`) or
 * a line break, whatever the config file holds.
 */
import { UsageError } from '../errors.js';
import { isLoopbackHost } from './base-url.js';

const LOAN_ID_PLACEHOLDER = '{id}';

/** What `{id}` stands as while the template is parsed: letters the parser leaves alone anywhere. */
const PARSED_PLACEHOLDER = 'loanctlidplaceholder';

const EXAMPLE = 'e.g. --dashboard-url "https://lender.example.com/loans/{id}"';

/** The template as the URL parser writes it back, or a UsageError saying what is wrong with it. */
export function checkDashboardUrl(template: string, source = '--dashboard-url'): string {
  const trimmed = template.trim();
  if (!trimmed.includes(LOAN_ID_PLACEHOLDER)) {
    throw new UsageError(`${source}: "${template}" has no ${LOAN_ID_PLACEHOLDER} for the loan request's id.`, EXAMPLE);
  }
  if (trimmed.includes(PARSED_PLACEHOLDER))
    throw new UsageError(`${source}: "${template}" is not a page URL.`, EXAMPLE);
  const parsed = checkPageUrl(trimmed.replaceAll(LOAN_ID_PLACEHOLDER, PARSED_PLACEHOLDER), source, template);
  return parsed.replaceAll(PARSED_PLACEHOLDER, LOAN_ID_PLACEHOLDER);
}

/** The page of loan request `id` (a template checked by checkDashboardUrl). */
export function dashboardUrlFor(template: string, id: number): string {
  return template.replaceAll(LOAN_ID_PLACEHOLDER, String(id));
}

/**
 * `value` as the URL parser writes it back, if it is a web page loanctl may open: https, or http
 * to a loopback host; else a UsageError naming `source`. `shown` is what the message quotes.
 */
export function checkPageUrl(value: string, source: string, shown = value): string {
  const quoted = JSON.stringify(shown);
  // The parser would drop a tab or line break silently, and quietly encode a space: refuse them.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  if (/[\u0000-\u0020\u007f]/.test(value)) {
    throw new UsageError(`${source}: ${quoted} holds a space or a control character.`, EXAMPLE);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source}: ${quoted} is not a URL.`, EXAMPLE);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new UsageError(
      `${source}: ${quoted} is not an https:// page (plain http:// only to localhost, 127.0.0.0/8 or ::1).`,
      EXAMPLE,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(`${source}: ${quoted} holds a user name or password: loanctl will not store or open it.`);
  }
  return url.href;
}
