/**
 * The API client: one keep-alive pool (./transport.ts, node:http) reused across every call of a
 * run, the contract's endpoint table for paths and validation, retries only where repeating is
 * safe, and the reply mapping of ./reply.ts (docs/guide.md#network).
 *
 * - Timeouts: `--timeout` bounds each request whole — connect, proxy, TLS, headers, body, and every
 *   retry with the waits between them; a connection gets at most 10 s of it.
 * - Retries (at most 3, exponential backoff with jitter, at most 30 s of waiting in all):
 *   GETs on a dropped connection or HTTP 502/503/504; every method when the request provably
 *   never reached the server (connection refused, DNS, connect timeout) or was refused with 429.
 *   `Retry-After` (seconds or an HTTP date) is honoured. A POST/PUT/DELETE that may have reached
 *   the server is never repeated, and its error names the command that shows whether it was
 *   applied (./outcome.ts).
 * - Replies are bounded in size (./transport.ts) and depth (./parsed-reply.ts).
 * - The API key appears only in the Authorization header; `--debug` and `--dry-run` print
 *   `Bearer ***`, and it is hidden from every reply in every form a server may echo it in
 *   (./redact.ts), before and after parsing.
 */

import type { IncomingHttpHeaders } from 'node:http';
import { abortableSleep, type Io } from '../basics.js';
import type { Settings } from '../config/settings.js';
import { checkCommand, matchOperation } from '../contract/checks.js';
import type { ReplyData } from '../contract/endpoints.js';
import { type HttpMethod, operation } from '../contract/operations.js';
import { AuthError, DryRunComplete, LoanctlError } from '../errors.js';
import type { ApiClient } from './api-client.js';
import { toCurl } from './curl.js';
import { abandoned, transportFailure } from './network-failure.js';
import { markUnknownOutcome, mayHaveApplied } from './outcome.js';
import { requirePayload } from './payload.js';
import { contractSchemas, type Prepared, prepareCall, prepareRequest, requestHeaders, USER_AGENT } from './prepare.js';
import type { Env } from './proxy.js';
import { redactText } from './redact.js';
import { type ApiResult, interpretReply, type ReplyContext } from './reply.js';
import { backoff, DEFAULT_RETRY, parseRetryAfter, type RetryPolicy, retryableStatus, seconds } from './retry.js';
import { authHint, describeBaseUrl, globalFlags } from './settings-hints.js';
import { createTransport, type Transport } from './transport.js';

export interface ClientOptions {
  io: Io;
  now?: () => Date;
  /** Waits between retries; should end early when `signal` aborts (the client was closed). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** The pool to send through (a bulk run shares one); its owner closes it. Default: the client's own. */
  transport?: Transport | undefined;
  retry?: Partial<RetryPolicy>;
  /** Where the proxy variables are read (./proxy.ts); default process.env. */
  env?: Env;
}

export function createApiClient(settings: Settings, options: ClientOptions): ApiClient {
  const stderr = options.io.stderr;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => new Date());
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  let transport = options.transport;
  let ownTransport: Transport | undefined;
  /**
   * Aborted by `close({ abort: true })`: nothing more is retried and waits between retries end.
   * Requests still out end because the client's own pool is closed with `abort` (a pool passed
   * in is its owner's to close: a bulk run closes its shared pool itself).
   */
  const closing = new AbortController();

  const pool = (): Transport => {
    if (!transport) {
      ownTransport = createPool(settings, undefined, options.env);
      transport = ownTransport;
    }
    return transport;
  };

  // A line is built only under --debug: a bulk run sends thousands of requests.
  const debug = (line: () => string) => {
    if (settings.debug) stderr.write(`${redact(`debug: ${line()}`, settings.apiKey)}\n`);
  };

  // Written once: the settings do not change during a run, and a bulk run reads thousands of replies.
  const baseUrlHint = `Check the base URL (${describeBaseUrl(settings)}) and that it points at the API.`;
  const keyHint = authHint(settings);
  const redactKey = (text: string) => redactText(text, settings.apiKey);
  const context = (url: URL, method: HttpMethod): ReplyContext => ({
    origin: url.origin,
    reading: method === 'GET',
    baseUrlHint,
    authHint: keyHint,
    redact: redactKey,
  });

  /**
   * Sends a request; a write that fails in a way that may have applied it gets the hint that says
   * so, with `check` (the command that shows whether it was), and is never advised to be retried.
   */
  async function sendOnce(prepared: Prepared, check: () => string | undefined): Promise<ApiResult> {
    let reached = false;
    try {
      return await send(prepared, () => {
        reached = true;
      });
    } catch (error) {
      if (prepared.method !== 'GET' && error instanceof LoanctlError && mayHaveApplied(error, reached)) {
        markUnknownOutcome(error, check());
      }
      throw error;
    }
  }

  /**
   * The request headers, built once: the key does not change during a run, and a bulk run sends
   * thousands of requests with the same two header sets (with a body and without). The key is
   * checked here, before the first request that would carry it.
   */
  let headersOf: ((prepared: Prepared) => Record<string, string>) | undefined;
  function checkedHeaders(): (prepared: Prepared) => Record<string, string> {
    const key = settings.apiKey;
    if (!key) {
      throw new AuthError(
        'No API key is configured.',
        `Add a profile (loanctl profile add NAME --base-url URL) or set LOANCTL_API_KEY.`,
      );
    }
    // Node refuses a header with a control character; without this check that surfaced as a
    // network failure, retried (e.g. a key file saved with Windows line endings).
    if (!/^[\x21-\x7e]+$/.test(key)) {
      throw new AuthError(
        'The API key has characters an HTTP header cannot carry (a space, a line ending or another control character).',
        authHint(settings),
      );
    }
    const withBody = requestHeaders({ body: '' }, key);
    const withoutBody = requestHeaders({ body: undefined }, key);
    return (prepared) => (prepared.body === undefined ? withoutBody : withBody);
  }

  /** `sent` is told when an attempt may have reached the server (it failed after connecting). */
  async function send(prepared: Prepared, sent: () => void): Promise<ApiResult> {
    if (settings.dryRun) {
      options.io.stdout.write(
        `${toCurl(prepared.method, prepared.url.href, requestHeaders(prepared, '***'), prepared.body)}\n`,
      );
      throw new DryRunComplete();
    }
    headersOf ??= checkedHeaders();
    const headers = headersOf(prepared);
    const { method, url } = prepared;
    // --timeout bounds the request whole, retries and waits included: an attempt gets what is left.
    const deadline = monotonicMs() + settings.timeoutMs;
    const left = () => Math.max(0, Math.ceil(deadline - monotonicMs()));
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const started = monotonicMs();
      // Behind the flag, not only in `debug`: a bulk run would make these closures for every row.
      if (settings.debug) {
        debug(() => `> ${method} ${url.href}`);
        debug(
          () =>
            `> authorization: Bearer ***  user-agent: ${USER_AGENT}${prepared.body ? `  (${Buffer.byteLength(prepared.body)} bytes of JSON)` : ''}`,
        );
      }
      let statusCode: number;
      let replyHeaders: IncomingHttpHeaders;
      let text: string;
      try {
        const remaining = Math.max(1, left());
        const reply = await pool().send({
          method,
          url,
          headers,
          body: prepared.body,
          timeoutMs: remaining,
          connectTimeoutMs: remaining,
        });
        statusCode = reply.statusCode;
        replyHeaders = reply.headers;
        text = reply.text;
      } catch (error) {
        // An attempt the deadline ended is told as the request's: "within 5 s", the --timeout given.
        if (left() === 0 && error instanceof Error && 'limitMs' in error) error.limitMs = settings.timeoutMs;
        const failure = transportFailure(error, url, settings);
        debug(() => `< failed after ${elapsed(started)}: ${failure.error.message}`);
        if (!failure.neverSent) sent();
        if (closing.signal.aborted) throw abandoned(url);
        const safe = failure.retryable && (failure.neverSent || method === 'GET');
        const delay = safe && attempt <= policy.retries ? backoff(policy, attempt, random) : undefined;
        if (delay !== undefined && waited + delay <= policy.maxTotalWaitMs && delay < left()) {
          notice(`${failure.short}; retrying in ${seconds(delay)} (attempt ${attempt + 1} of ${policy.retries + 1})`);
          waited += delay;
          await sleep(delay, closing.signal);
          if (closing.signal.aborted) throw abandoned(url);
          continue;
        }
        throw failure.error;
      }
      const contentType = header(replyHeaders['content-type']);
      if (settings.debug) {
        debug(() =>
          ['< HTTP', statusCode, contentType, `${Buffer.byteLength(text)} bytes in ${elapsed(started)}`]
            .filter((part) => part !== undefined && part !== '')
            .join(' '),
        );
      }
      if (attempt <= policy.retries && retryableStatus(statusCode, method)) {
        const asked = parseRetryAfter(header(replyHeaders['retry-after']), now());
        const delay = asked ?? backoff(policy, attempt, random);
        if (waited + delay <= policy.maxTotalWaitMs && delay < left()) {
          notice(
            `HTTP ${statusCode} from ${url.host}; retrying in ${seconds(delay)} (attempt ${attempt + 1} of ${policy.retries + 1})`,
          );
          waited += delay;
          await sleep(delay, closing.signal);
          if (closing.signal.aborted) throw abandoned(url);
          continue;
        }
        debug(
          () =>
            `not retrying: waiting ${seconds(delay)} would pass the ${seconds(policy.maxTotalWaitMs)} limit or --timeout`,
        );
      }
      const result = interpretReply(statusCode, contentType, text, context(url, method));
      result.dateHeader = header(replyHeaders.date);
      return result;
    }
  }

  function notice(line: string) {
    stderr.write(`loanctl: ${line}\n`);
  }

  return {
    settings,
    async call(key, callOptions = {}) {
      const { prepared, params, query, body } = await prepareCall(settings, key, callOptions);
      // Made only when a write may have been applied and its error names the command that shows it.
      const check = () =>
        checkCommand(key, {
          params,
          body,
          productId: (query['product-id'] as number | undefined) ?? settings.productId,
          globals: globalFlags(settings),
        });
      const result = await sendOnce(prepared, check);
      requirePayload(operation(key), result, check);
      if (settings.debug) {
        const { endpoint } = await contractSchemas();
        const check = endpoint(key).reply.data.safeParse(result.data);
        if (!check.success)
          debug(() => `the reply's data does not match the contract for ${key}: ${check.error.issues[0]?.message}`);
      }
      return result as ApiResult<ReplyData<typeof key>>;
    },
    request(method, path, requestOptions = {}) {
      const prepared = prepareRequest(settings, method, path, requestOptions.query, requestOptions.body);
      return sendOnce(prepared, () => {
        const found = matchOperation(method, prepared.url.pathname);
        const productId = prepared.url.searchParams.get('product-id') ?? settings.productId;
        const facts = { params: found?.params, body: requestOptions.body, productId, globals: globalFlags(settings) };
        return found && checkCommand(found.key, facts);
      });
    },
    async close(closeOptions = {}) {
      if (closeOptions.abort) closing.abort();
      await ownTransport?.close(closeOptions);
      ownTransport = undefined;
    },
  };
}

/**
 * The keep-alive pool of a run: at most `connections` sockets per origin (opened only as needed).
 * Bulk runs (src/bulk) size it to their concurrency and share it between their clients.
 */
export function createPool(settings: Pick<Settings, 'timeoutMs'>, connections = 8, env?: Env): Transport {
  return createTransport({ connections, connectTimeoutMs: Math.min(settings.timeoutMs, 10_000), env });
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function elapsed(started: number): string {
  return `${Math.round(monotonicMs() - started)} ms`;
}

/**
 * Milliseconds on the monotonic clock, as `performance.now()` counts them but without reading the
 * global `performance`, whose first use loads node:perf_hooks and its timing modules (~1 ms).
 */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Belt and braces: whatever a debug line says, the key never appears in it, in any form. */
function redact(text: string, key: string | undefined): string {
  return redactText(text, key);
}
