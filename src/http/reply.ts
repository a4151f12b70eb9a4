/**
 * The one place where what the API answered becomes a result or a typed error
 * (docs/guide.md#exit-codes; spec 2.1 and 7):
 *
 * | answer                                            | outcome                     | exit |
 * |---------------------------------------------------|-----------------------------|------|
 * | a body over 32 MiB (MAX_REPLY_BYTES in            | NetworkError; reading stops | 5    |
 * |   ./transport.ts: by Content-Length or as read)   |   there (memory bounded)    |      |
 * | HTTP 401/403 (any body)                           | AuthError                   | 3    |
 * | a body that is not the API's JSON envelope        | NetworkError (one line)     | 5    |
 * |   (HTML error page, truncated or malformed JSON,  |                             |      |
 * |   JSON nested deeper than 256 levels              |                             |      |
 * |   (MAX_REPLY_DEPTH, ./parsed-reply.ts), JSON      |                             |      |
 * |   without status/message) — except 429            | ApiError (rate limited)     | 1    |
 * | status `no-access`, or HTTP 404 with an envelope  | NoAccessError               | 4    |
 * | status `error`, or any other HTTP ≥ 400           | ApiError with the message   | 1    |
 * | status `success` / `exists`                       | the result                  | 0    |
 *
 * The envelope is any JSON object with a known status and a string message; `data` and `data1`
 * may be absent (the real service's error replies have neither). An empty body on a 2xx (e.g. 204
 * to a delete, whose reply the spec leaves open) is taken as success with `data: null`.
 */
import { inexactNumberIn } from '../contract/exact-json.js';
import { type Envelope, isEnvelope, SOMETHING_WENT_WRONG } from '../contract/vocabulary.js';
import { ApiError, AuthError, type LoanctlError, NetworkError, NoAccessError, type ReplyInfo } from '../errors.js';
import { cleanParsed, MAX_REPLY_DEPTH, nothingToClean } from './parsed-reply.js';

export interface ApiResult<T = unknown> {
  status: 'success' | 'exists';
  message: string;
  data: T;
  data1: unknown;
  /** What a user wants to see of this reply: `data1` where the API puts the loan request there, else `data`. */
  payload: unknown;
  envelope: Envelope;
  rawBody: string;
  httpStatus: number;
  /**
   * The reply's `Date` header as sent: `httpDate` reads the server's clock from it. Parsed only by
   * the commands that use it (loan queue, loan approve), not on every row of a bulk run.
   */
  dateHeader?: string | undefined;
}

/** The instant an HTTP `Date` header names (RFC 9110 IMF-fixdate), or undefined. */
export function httpDate(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : new Date(at);
}

export interface ReplyContext {
  /** e.g. `https://api.example.com` — for messages. */
  origin: string;
  /** Where the base URL came from and what to do about it, e.g. `Check --base-url (profile "prod")`. */
  baseUrlHint: string;
  /** What to do about a rejected key. */
  authHint: string;
  /** True for a GET: it changed nothing, so a failed one is safe to run again. */
  reading: boolean;
  /**
   * Hides the API key in a text (./redact.ts). Applied to the reply's text before anything reads
   * it, and again to every string of the parsed JSON where escapes are decoded; when that finds
   * anything, `rawBody` becomes the redacted JSON.
   */
  redact?: (text: string) => string;
}

export function interpretReply(
  httpStatus: number,
  contentType: string | undefined,
  rawBody: string,
  context: ReplyContext,
): ApiResult {
  // The key is hidden before anything reads the reply: a server or proxy that echoes it
  // (e.g. "invalid key sk_live_…") must not get it printed, by an error line or by --raw.
  if (context.redact) rawBody = context.redact(rawBody);
  const parsed = parseEnvelope(httpStatus, contentType, rawBody, context.redact);
  if (parsed.ok && parsed.rawBody !== undefined) rawBody = parsed.rawBody;
  const reply: ReplyInfo = { httpStatus, rawBody, envelope: parsed.ok ? parsed.envelope : undefined };
  const fail = (error: LoanctlError): never => {
    error.reply = reply;
    throw error;
  };

  if (httpStatus === 401 || httpStatus === 403) {
    const said = parsed.ok && parsed.envelope.message ? `: ${oneLine(parsed.envelope.message)}` : '';
    fail(
      new AuthError(
        sentence(`The API rejected the API key (HTTP ${httpStatus})${said}`),
        context.authHint,
        reply.envelope,
      ),
    );
  }
  if (!parsed.ok) {
    if (httpStatus === 429) {
      fail(
        new ApiError(`The API is limiting requests (HTTP 429).`, { httpStatus, hint: 'Wait a moment and try again.' }),
      );
    }
    fail(
      new NetworkError(
        `The server at ${context.origin} answered HTTP ${httpStatus} with ${parsed.what}, not the API's JSON.`,
        context.baseUrlHint,
      ),
    );
  }
  const envelope = (parsed as { envelope: Envelope }).envelope;
  if (envelope.status === 'no-access' || httpStatus === 404) {
    const message = oneLine(envelope.message);
    fail(
      new NoAccessError(
        sentence(`${envelope.status === 'no-access' ? 'No access' : 'Not found'}: ${message || `HTTP ${httpStatus}`}`),
        'Check the id, and that it belongs to the organisation of this API key.',
        envelope,
      ),
    );
  }
  if (envelope.status === 'error' || httpStatus >= 400) {
    const message = oneLine(envelope.message);
    fail(
      new ApiError(sentence(`The API answered with an error (HTTP ${httpStatus}): ${message || envelope.status}`), {
        httpStatus,
        envelope,
        hint: errorHint(httpStatus, message, context.reading),
      }),
    );
  }
  const data1 = envelope.data1 ?? null;
  return {
    status: envelope.status as 'success' | 'exists',
    message: envelope.message,
    data: envelope.data ?? null,
    data1,
    payload: payloadOf(envelope),
    envelope,
    rawBody,
    httpStatus,
  };
}

/** `data1` where the API carries the loan request there (data null, data1 set), else `data`. */
export function payloadOf(envelope: { data?: unknown; data1?: unknown }): unknown {
  if ((envelope.data === null || envelope.data === undefined) && envelope.data1 != null) return envelope.data1;
  return envelope.data ?? null;
}

type Parsed = { ok: true; envelope: Envelope; rawBody?: string } | { ok: false; what: string };

/** A reply labelled as an HTML page is never read as the API's envelope, whatever its body. */
function labelledHtml(contentType: string | undefined): boolean {
  return (contentType ?? '').toLowerCase().includes('text/html');
}

function parseEnvelope(
  httpStatus: number,
  contentType: string | undefined,
  rawBody: string,
  redact: ((text: string) => string) | undefined,
): Parsed {
  const body = rawBody.trim();
  if (body === '') {
    if (httpStatus >= 200 && httpStatus < 300) {
      return { ok: true, envelope: { status: 'success', message: '', data: null } };
    }
    return { ok: false, what: 'an empty body' };
  }
  if (labelledHtml(contentType) || /^<(!doctype|html|head|body|\?xml)/i.test(body)) {
    return { ok: false, what: 'an HTML page' };
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    const looksJson = body.startsWith('{') || body.startsWith('[');
    return { ok: false, what: looksJson ? 'JSON that is cut off or malformed' : 'a body that is not JSON' };
  }
  const cleaned = nothingToClean(body)
    ? { ok: true, value: json, changed: false }
    : cleanParsed(json, redact ?? ((text) => text));
  if (!cleaned.ok) return { ok: false, what: `JSON nested deeper than ${MAX_REPLY_DEPTH} levels` };
  // 1e999 would be shown as null, 99999999999999999999 as 100000000000000000000.
  const inexact = inexactNumberIn(body, json);
  if (inexact !== undefined)
    return { ok: false, what: `JSON holding a number loanctl cannot show exactly (${inexact})` };
  json = cleaned.value;
  if (!isEnvelope(json)) return { ok: false, what: 'JSON that is not the API envelope (status, message)' };
  return { ok: true, envelope: json, ...(cleaned.changed ? { rawBody: JSON.stringify(json) } : {}) };
}

/**
 * What to do after an API error. Below 500 the API refused the request as sent: its message
 * names what to change. A 5xx is the server failing, and so is the service's own "Something went
 * wrong" whatever the HTTP status (it sends it with 200 too): a read changed nothing and can
 * simply run again later; a write may or may not have been applied, so look before repeating it
 * (the client replaces this hint with the command that shows whether it was, ./outcome.ts).
 */
function errorHint(httpStatus: number, message: string, reading: boolean): string {
  const serverFailed = httpStatus >= 500 || message.startsWith(SOMETHING_WENT_WRONG);
  if (!serverFailed) return 'Change what it names and run the command again.';
  return reading
    ? 'The server failed to answer; this read changed nothing, so try again later. --debug shows the exchange.'
    : 'Check whether the change was applied before running it again; --debug shows the exchange.';
}

/** Ends a message with exactly one full stop (the API's messages sometimes bring their own). */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Messages from the server go on one line of the terminal. */
function oneLine(text: string): string {
  return (
    text
      .replace(/[\r\n\t]+/g, ' ')
      // Bidirectional overrides too: they would reorder the rest of the operator's line.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
      .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
      .trim()
      .slice(0, 500)
  );
}
