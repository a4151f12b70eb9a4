/**
 * One request's log entry: what is captured while the request is served (cheap: references only),
 * and the row made from it later, off the request's path (redaction, JSON, the refusal's reason).
 */
import { redactText } from '../../http/redact.js';
import { MESSAGES } from '../envelope.js';
import { BODY_LIMIT, ENDED, type Ended, type NewLogRow } from './store.js';

export interface Captured {
  /** Date.now() when the reply was sent. */
  at: number;
  method: string;
  url: string;
  http: number;
  ms: number;
  orgId: number | undefined;
  faultId: number | undefined;
  params: unknown;
  requestBody: unknown;
  replyText: string | undefined;
  /** The caller's Authorization header: only to hide the key in what is logged; never written. */
  authorization: string | undefined;
  ended: Ended;
}

/**
 * The HTTP status logged for a request whose client closed the connection before its reply:
 * nothing was sent; 499 is nginx's code for it, so `--status 4xx` and `--status 499` find it.
 */
export const CLIENT_GONE_HTTP = 499;

/** Body fields whose values are never logged. */
const SECRET_NAMES = /^(password|.*_password|api_?key|key|secret|token|authorization)$/i;
const HIDDEN = '***';

/**
 * The row for `captured`; never throws. A row that cannot be built (a body nested too deep to
 * write out, a value SQLite refuses) is recorded as `placeholderRow` instead: every request is in
 * the log, and one bad row never takes the others of its batch with it (issue #22).
 */
export function toRow(captured: Captured): NewLogRow {
  try {
    return fullRow(captured);
  } catch (error) {
    return placeholderRow(captured, error);
  }
}

/**
 * What is known of a request whose row could not be built: its time, organisation, method, path
 * and HTTP status, each only if it is plainly what it should be, and why the rest is missing (the
 * error's class only: a message may quote the body).
 */
export function placeholderRow(captured: Captured, error: unknown): NewLogRow {
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  return {
    time: new Date().toISOString(),
    org_id: number(captured.orgId),
    method: typeof captured.method === 'string' ? captured.method.slice(0, 16) : '-',
    path: safely(() => fullRow({ ...captured, requestBody: undefined, replyText: undefined }).path, '-'),
    query: '',
    http: number(captured.http) ?? 0,
    status: null,
    ms: number(captured.ms) ?? 0,
    why: `this entry could not be built (${error instanceof Error ? error.name : typeof error}): only its time, method, path and HTTP status are kept`,
    request_body: null,
    reply_body: null,
    ended: captured.ended === ENDED.clientGone ? ENDED.clientGone : ENDED.answered,
  };
}

function safely<T>(make: () => T, otherwise: T): T {
  try {
    return make();
  } catch {
    return otherwise;
  }
}

function fullRow(captured: Captured): NewLogRow {
  const key = bearerKey(captured.authorization);
  const hide = (text: string) => redactText(text, key);
  const queryAt = captured.url.indexOf('?');
  const path = queryAt === -1 ? captured.url : captured.url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : captured.url.slice(queryAt + 1);
  const reply = parseEnvelope(captured.replyText);
  return {
    time: new Date(captured.at).toISOString(),
    org_id: captured.orgId ?? null,
    method: captured.method,
    path: hide(path),
    query: hide(query),
    http: captured.http,
    status: reply?.status ?? null,
    ms: Math.round(captured.ms * 100) / 100,
    why: why(captured, reply, new URLSearchParams(query)),
    request_body: captured.requestBody === undefined ? null : cut(hide(redactedJson(captured.requestBody))),
    reply_body: captured.replyText === undefined ? null : cut(hide(captured.replyText)),
    ended: captured.ended,
  };
}

function bearerKey(authorization: string | undefined): string | undefined {
  return authorization ? /^\s*Bearer\s+(\S+)/i.exec(authorization)?.[1] : undefined;
}

function redactedJson(body: unknown): string {
  return JSON.stringify(body, (name, value) => (SECRET_NAMES.test(name) && value !== null ? HIDDEN : value));
}

function cut(text: string): string {
  return text.length <= BODY_LIMIT ? text : `${text.slice(0, BODY_LIMIT)}… (${text.length} characters in all)`;
}

/**
 * The envelope's status and message, read from the head of the reply: every envelope the sandbox
 * sends begins with them (envelope.ts), so a page of 20 loan requests is not parsed again only to
 * learn its status. Any other JSON reply is parsed whole.
 */
const ENVELOPE_HEAD = /^\{"status":("(?:[^"\\]|\\.)*"),"message":("(?:[^"\\]|\\.)*")/;

function parseEnvelope(text: string | undefined): { status?: string; message?: string } | undefined {
  if (text === undefined || !text.startsWith('{')) return undefined;
  try {
    const head = ENVELOPE_HEAD.exec(text);
    const parsed: { status?: unknown; message?: unknown } = head
      ? { status: JSON.parse(head[1] as string), message: JSON.parse(head[2] as string) }
      : JSON.parse(text);
    return {
      ...(typeof parsed.status === 'string' && { status: parsed.status }),
      ...(typeof parsed.message === 'string' && { message: parsed.message }),
    };
  } catch {
    return undefined;
  }
}

/** Which check refused the request (or which fault answered it); null for a success. */
function why(captured: Captured, reply: { status?: string; message?: string } | undefined, query: URLSearchParams) {
  const fault = captured.faultId === undefined ? undefined : `fault #${captured.faultId} (loanctl sandbox faults list)`;
  if (captured.ended === ENDED.clientGone)
    return `client gone before the reply${fault ? `, while ${fault} delayed it` : ''}`;
  if (fault) return fault;
  if (reply?.status === 'success' || reply?.status === 'exists') return null;
  const params = (captured.params ?? {}) as Record<string, string | undefined>;
  switch (reply?.message) {
    case MESSAGES.keyMissing:
      return 'missing API key';
    case MESSAGES.keyInvalid:
      return 'bad API key';
    case MESSAGES.productRequired:
      return 'missing product id';
    case MESSAGES.noAccessLoanRequest:
      return `no access to loan request ${params.id}`;
    case MESSAGES.noAccessUser:
      return `no access to user ${params.user_id}`;
    case MESSAGES.noAccessProduct:
      return `no access to product ${query.get('product-id')}`;
    case undefined:
      return captured.http >= 400 ? `HTTP ${captured.http} without an envelope` : null;
    default:
      return reply?.message ?? null;
  }
}
