/**
 * One request's log entry: what is captured while the request is served (cheap: references only),
 * and the row made from it later, off the request's path (redaction, JSON, the refusal's reason).
 */
import { decodeEscapes, redactPrefixed, redactText } from '../../http/redact.js';
import { MESSAGES } from '../envelope.js';
import { API_KEY_PREFIX } from '../secrets.js';
import { pieceHider } from './key-pieces.js';
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
  /** What the request's `Prefer` header asked for and was applied (../prefer.ts); undefined: none. */
  prefer?: string | undefined;
  /** `sandbox proxy`: the request's and reply's breaks of the contract, as JSON (../proxy/check.ts). */
  violations?: string | undefined;
}

/**
 * The HTTP status logged for a request whose client closed the connection before its reply:
 * nothing was sent; 499 is nginx's code for it, so `--status 4xx` and `--status 499` find it.
 */
export const CLIENT_GONE_HTTP = 499;

/**
 * The HTTP status logged for a request whose connection was closed without a reply because its
 * `Prefer: drop` asked for it: nginx's 444, "closed without a response".
 */
export const DROPPED_HTTP = 444;

/** Body fields whose values are never logged. */
const SECRET_NAMES = /^(password|.*_password|api_?key|key|secret|token|authorization)$/i;
const HIDDEN = '***';

/**
 * The row for `captured`; never throws. A row that cannot be built (a body nested too deep to
 * write out, a value SQLite refuses) is recorded as `placeholderRow` instead: every request is in
 * the log, and one bad row never takes the others of its batch with it.
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
    ended: captured.ended === ENDED.clientGone || captured.ended === ENDED.dropped ? captured.ended : ENDED.answered,
    prefer: null,
    violations: null,
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
  const hide = keyHider(captured.authorization);
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
    why: nullable(why(captured, reply, new URLSearchParams(query)), hide),
    request_body: captured.requestBody === undefined ? null : cut(redactedJson(captured.requestBody), hide),
    reply_body: captured.replyText === undefined ? null : cut(captured.replyText, hide),
    ended: captured.ended,
    prefer: captured.prefer ?? null,
    violations: captured.violations === undefined ? null : hide(captured.violations),
  };
}

/** A run of this many characters of the caller's key is hidden wherever it is (the tests grep for 7). */
const KEY_PIECE = 7;

/**
 * What hides keys in each text of a row (path, query, why, bodies), in every form redact.ts knows:
 * any sandbox key, of this organisation or another, whole or from its prefix on (the sandbox keeps
 * only digests, so it finds them by their prefix); and whatever the Authorization header carried,
 * with or without `Bearer`, a wrong key or another service's, whole or in pieces: whoever reads
 * the log never learns a key that was sent.
 */
function keyHider(authorization: string | undefined): (text: string) => string {
  const credentials = credentialsIn(authorization);
  // Every form of a credential (base64 too) is one pattern per credential: only for the few that
  // may be a key. Pieces of all of them are looked for in one pass (key-pieces.ts), so a header of
  // thousands of words costs time linear in it, not a pattern per word per text.
  const whole = credentials.filter((credential) => credential.length <= LONGEST_KEY).slice(0, MOST_KEYS);
  const hidePieces = pieceHider(credentials.map(secretPart), KEY_PIECE);
  const hide = (text: string) =>
    hidePieces(
      whole.reduce((hidden, credential) => redactText(hidden, credential), redactPrefixed(text, API_KEY_PREFIX)),
    );
  return (text) => {
    const hidden = hide(text);
    // A key under several layers of escapes (a URL-encoded HTML reference in a path) is not cut
    // out by the forms above, which undo one: decoded layer by layer, a text that still shows a
    // key is withheld whole, and so is one with more layers than are looked through.
    let decoded = hidden;
    for (let layer = 1; layer <= ESCAPE_LAYERS; layer++) {
      const next = decodeEscapes(decoded);
      if (next === decoded) return hidden;
      decoded = next;
      if (hide(decoded) !== decoded) return WITHHELD;
    }
    return decodeEscapes(decoded) === decoded ? hidden : WITHHELD;
  };
}

/**
 * Credentials looked for in every form: the first few words of the header, none longer than any
 * key (a sandbox key is 43 characters; the sandbox refuses a longer header before anything else).
 * Longer or further words are still hidden by their pieces.
 */
const LONGEST_KEY = 256;
const MOST_KEYS = 4;

/** Layers of escapes looked through; a text with more is withheld (each layer costs a pass). */
const ESCAPE_LAYERS = 6;

const WITHHELD = '*** (withheld: it held an API key under layers of escapes, or too many layers to look through)';

/**
 * What an Authorization header carries: every word but its scheme, and of a Basic one the parts of
 * `user:password` long enough to be a key (a short user name such as `user` would hide `/user`).
 */
function credentialsIn(authorization: string | undefined): string[] {
  const words = (authorization ?? '').split(/[\s,]+/).filter((word) => word !== '');
  const scheme = /^(bearer|basic|token)$/i.test(words[0] ?? '') ? words.shift()?.toLowerCase() : undefined;
  const basic = scheme === 'basic' ? words.flatMap((word) => Buffer.from(word, 'base64').toString().split(':')) : [];
  return [...words.filter((word) => word.length >= 4), ...basic.filter((part) => part.length >= BASIC_PART)];
}

const BASIC_PART = 8;

/** A sandbox key without its prefix, which every key shares; any other credential whole. */
function secretPart(credential: string): string {
  return credential.startsWith(API_KEY_PREFIX) ? credential.slice(API_KEY_PREFIX.length) : credential;
}

function nullable(text: string | null, change: (text: string) => string): string | null {
  return text === null ? null : change(text);
}

function redactedJson(body: unknown): string {
  return JSON.stringify(body, (name, value) => (SECRET_NAMES.test(name) && value !== null ? HIDDEN : value));
}

/**
 * A body with its keys hidden, cut at BODY_LIMIT characters. Only what is kept is looked through,
 * and a margin past it, longer than any form of a key that straddles the cut but a padded one
 * (whose kept part is still hidden: its pieces, or its prefix).
 */
function cut(text: string, hide: (text: string) => string): string {
  if (text.length <= BODY_LIMIT) return hide(text);
  const kept = hide(text.slice(0, BODY_LIMIT + CUT_MARGIN)).slice(0, BODY_LIMIT);
  return `${kept}… (${text.length} characters in all)`;
}

const CUT_MARGIN = 512;

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
  if (captured.ended === ENDED.dropped)
    return `dropped without a reply, as its Prefer header asked (${captured.prefer})`;
  if (captured.prefer !== undefined && /\b(code|envelope)=/.test(captured.prefer)) {
    return `answered as its Prefer header asked (${captured.prefer})`;
  }
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
    case MESSAGES.keyTooLong:
      return 'Authorization header too long';
    case MESSAGES.productRequired:
      return 'missing product id';
    case MESSAGES.noAccessLoanRequest:
      return `no access to loan request ${idOrNot(params.id)}`;
    case MESSAGES.noAccessUser:
      return `no access to user ${idOrNot(params.user_id)}`;
    case MESSAGES.noAccessProduct:
      return `no access to product ${idOrNot(query.get('product-id'))}`;
    case undefined:
      return captured.http >= 400 ? `HTTP ${captured.http} without an envelope` : null;
    default:
      return reply?.message ?? null;
  }
}

/**
 * An id from the path or query as the reason names it: digits are shown, anything else is not
 * repeated (it may be a key pasted in the wrong place; the path and query, redacted, show it).
 */
function idOrNot(value: string | null | undefined): string {
  return value && /^\d{1,20}$/.test(value) ? value : '(not an id)';
}
