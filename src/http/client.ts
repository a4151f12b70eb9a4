/**
 * The API client: one keep-alive pool (./transport.ts, node:http) reused across every call of a
 * run, the contract's endpoint table for paths and validation, retries only where repeating is
 * safe, and the reply mapping of ./reply.ts (conventions.md, "Network").
 *
 * - Timeouts: connect (min(timeout, 10 s)) and the whole exchange, headers and body (`--timeout`).
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

import type { Settings } from '../config/settings.js';
import { checkCommand, matchOperation } from '../contract/checks.js';
import type { ReplyData } from '../contract/endpoints.js';
import type { BodyKey, BodyOf } from '../contract/fields.js';
import {
  fillPath,
  type HttpMethod,
  type OperationDef,
  type OperationKey,
  operation,
  type PathParamsOf,
  type QueryOf,
} from '../contract/operations.js';
import { abortableSleep, type Io } from '../deps.js';
import { AuthError, DryRunComplete, inputError, LoanctlError, NetworkError, UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { toCurl } from './curl.js';
import { proxyFailure, tlsFailure } from './failure.js';
import { markUnknownOutcome, mayHaveApplied } from './outcome.js';
import type { Env } from './proxy.js';
import { redactText } from './redact.js';
import { type ApiResult, interpretReply, type ReplyContext } from './reply.js';
import { CONNECT_TIMEOUT, createTransport, REPLY_TOO_LARGE, type Transport } from './transport.js';

export type { ApiResult } from './reply.js';

export type QueryValue = string | number | boolean | undefined | null;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

/**
 * What one operation of the contract is called with, typed from its description: the path
 * parameters it names (required when it has any), its own query parameters, and its body as its
 * fields say (src/contract/fields.ts `BodyOf`). Every value is checked again with the operation's
 * schemas before anything is sent.
 */
export interface CallOptions<K extends OperationKey = OperationKey> {
  /** Path parameters by name, as the operation names them: `{ id: 42 }`, `{ user_id: 7 }`. */
  params?: PathParamsOf<K>;
  /** Query parameters other than product-id; undefined values are left out. */
  query?: { [N in keyof QueryOf<K>]?: QueryValue };
  /** The JSON body, as the operation's fields say (validated again before anything is sent). */
  body?: BodyOf<K & BodyKey>;
  /** Overrides the settings' product id (e.g. a command's `--product`). */
  productId?: number | string | undefined;
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
}

export interface ApiClient {
  readonly settings: Settings;
  /** One operation of the contract table, validated, with product-id added where it applies. */
  call<K extends OperationKey>(key: K, options?: CallOptions<K>): Promise<ApiResult<ReplyData<K>>>;
  /** Any method and path (the `api` command): same auth, retries and reply mapping. */
  request(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiResult>;
  /**
   * Closes the pool. By default it lets requests still out finish; with `abort` (Ctrl-C) it drops
   * them at once and retries nothing more, so the process does not wait out `--timeout` for a
   * reply nobody will read.
   */
  close(options?: { abort?: boolean }): Promise<void>;
}

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

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Most time spent waiting between attempts, in all; a longer Retry-After ends the retries. */
  maxTotalWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 8_000, maxTotalWaitMs: 30_000 };

export const USER_AGENT = `loanctl/${VERSION} node/${process.versions.node}`;

interface Prepared {
  method: HttpMethod;
  url: URL;
  body: string | undefined;
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

  const debug = (line: string) => {
    if (settings.debug) stderr.write(`${redact(`debug: ${line}`, settings.apiKey)}\n`);
  };

  const where = describeBaseUrl(settings);
  const context = (url: URL, method: HttpMethod): ReplyContext => ({
    origin: url.origin,
    reading: method === 'GET',
    baseUrlHint: `Check the base URL (${where}) and that it points at the API.`,
    authHint: authHint(settings),
    redact: (text) => redactText(text, settings.apiKey),
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

  function prepare(method: HttpMethod, path: string, query: Query | undefined, body: unknown): Prepared {
    if (!settings.baseUrl) {
      throw new UsageError(
        'No API base URL is configured.',
        'Pass --base-url URL, set LOANCTL_BASE_URL, or add a profile: loanctl profile add NAME --base-url URL',
      );
    }
    const url = new URL(settings.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    for (const [name, value] of Object.entries(query ?? {})) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== undefined && item !== null) url.searchParams.append(name, String(item));
      }
    }
    return { method, url, body: body === undefined ? undefined : JSON.stringify(body) };
  }

  function headers(prepared: Prepared, key: string): Record<string, string> {
    const result: Record<string, string> = {
      accept: 'application/json',
      'user-agent': USER_AGENT,
      authorization: `Bearer ${key}`,
    };
    if (prepared.body !== undefined) result['content-type'] = 'application/json';
    return result;
  }

  /** `sent` is told when an attempt may have reached the server (it failed after connecting). */
  async function send(prepared: Prepared, sent: () => void): Promise<ApiResult> {
    if (settings.dryRun) {
      options.io.stdout.write(
        `${toCurl(prepared.method, prepared.url.href, headers(prepared, '***'), prepared.body)}\n`,
      );
      throw new DryRunComplete();
    }
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
    const requestHeaders = headers(prepared, key);
    const { method, url } = prepared;
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const started = monotonicMs();
      debug(`> ${method} ${url.href}`);
      debug(
        `> authorization: Bearer ***  user-agent: ${USER_AGENT}${prepared.body ? `  (${Buffer.byteLength(prepared.body)} bytes of JSON)` : ''}`,
      );
      let statusCode: number;
      let contentType: string | undefined;
      let retryAfter: string | undefined;
      let text: string;
      try {
        const reply = await pool().send({
          method,
          url,
          headers: requestHeaders,
          body: prepared.body,
          timeoutMs: settings.timeoutMs,
        });
        statusCode = reply.statusCode;
        contentType = header(reply.headers['content-type']);
        retryAfter = header(reply.headers['retry-after']);
        text = reply.text;
      } catch (error) {
        const failure = transportFailure(error, url, settings);
        debug(`< failed after ${elapsed(started)}: ${failure.error.message}`);
        if (!failure.neverSent) sent();
        if (closing.signal.aborted) throw abandoned(url);
        const safe = failure.retryable && (failure.neverSent || method === 'GET');
        const delay = safe && attempt <= policy.retries ? backoff(attempt) : undefined;
        if (delay !== undefined && waited + delay <= policy.maxTotalWaitMs) {
          notice(`${failure.short}; retrying in ${seconds(delay)} (attempt ${attempt + 1} of ${policy.retries + 1})`);
          waited += delay;
          await sleep(delay, closing.signal);
          if (closing.signal.aborted) throw abandoned(url);
          continue;
        }
        throw failure.error;
      }
      debug(
        `< HTTP ${statusCode} ${contentType ?? ''} ${Buffer.byteLength(text)} bytes in ${elapsed(started)}`.replace(
          / {2,}/g,
          ' ',
        ),
      );
      if (attempt <= policy.retries && retryableStatus(statusCode, method)) {
        const asked = parseRetryAfter(retryAfter, now());
        const delay = asked ?? backoff(attempt);
        if (waited + delay <= policy.maxTotalWaitMs) {
          notice(
            `HTTP ${statusCode} from ${url.host}; retrying in ${seconds(delay)} (attempt ${attempt + 1} of ${policy.retries + 1})`,
          );
          waited += delay;
          await sleep(delay, closing.signal);
          if (closing.signal.aborted) throw abandoned(url);
          continue;
        }
        debug(`not retrying: waiting ${seconds(delay)} would pass the ${seconds(policy.maxTotalWaitMs)} limit`);
      }
      // The reply is redacted before anything reads it: a server or proxy that echoes the key
      // (e.g. "invalid key sk_live_…") must not get it printed, by an error line or by --raw.
      return interpretReply(statusCode, contentType, redactText(text, key), context(url, method));
    }
  }

  function backoff(attempt: number): number {
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    // "Equal jitter": half fixed, half random, so retries of many clients spread out.
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  }

  function notice(line: string) {
    stderr.write(`loanctl: ${line}\n`);
  }

  return {
    settings,
    async call(key, callOptions = {}) {
      const def: OperationDef = operation(key);
      const named: Partial<Record<string, string | number>> = callOptions.params ?? {};
      const params: Record<string, string | number> = {};
      for (const name of def.pathParams) {
        const value = named[name];
        if (value === undefined || String(value).trim() === '') {
          throw new UsageError(
            `Missing ${name === 'id' ? 'the loan request id' : name} for ${def.summary.toLowerCase()}.`,
          );
        }
        params[name] = value;
      }
      const query: Query = {};
      if (def.productId) {
        const productId = callOptions.productId ?? settings.productId;
        if (productId === undefined || String(productId).trim() === '') {
          throw new UsageError(
            'No product id: this operation needs one.',
            'Pass --product N, set LOANCTL_PRODUCT_ID, or give the profile one (loanctl profile add NAME --base-url URL --product-id N).',
          );
        }
        query['product-id'] = productId;
      }
      const given: Query = callOptions.query ?? {};
      const extra: Query = Object.fromEntries(
        Object.entries(given).filter(([, value]) => value !== undefined && value !== null),
      );
      // zod loads here, with this operation's schemas only (bench/README.md).
      const schemas = (await requestSchemasModule()).requestSchemas(key);
      const checked = schemas.query.safeParse(stringify(extra));
      if (!checked.success) throw inputError(checked.error.issues, { what: 'Invalid query', fromData: false });
      Object.assign(query, extra);
      let body: unknown;
      if (schemas.body) {
        const parsed = schemas.body.safeParse(callOptions.body ?? {});
        if (!parsed.success) throw inputError(parsed.error.issues);
        // Send what was validated: zod strips unknown keys and trims where the schema says so.
        body = parsed.data;
      }
      const globals = globalFlags(settings);
      const check = () =>
        checkCommand(key, {
          params,
          body,
          productId: (query['product-id'] as number | undefined) ?? settings.productId,
          globals,
        });
      const result = await sendOnce(prepare(def.method, fillPath(def.path, params), query, body), check);
      requirePayload(def, result, check);
      if (settings.debug) {
        const { endpoint } = await contractSchemas();
        const check = endpoint(key).reply.data.safeParse(result.data);
        if (!check.success)
          debug(`the reply's data does not match the contract for ${key}: ${check.error.issues[0]?.message}`);
      }
      return result as ApiResult<ReplyData<typeof key>>;
    },
    request(method, path, requestOptions = {}) {
      const prepared = prepare(method, path, requestOptions.query, requestOptions.body);
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

let requestsLoaded: Promise<typeof import('../contract/requests.js')> | undefined;
let endpointsLoaded: Promise<typeof import('../contract/endpoints.js')> | undefined;
/**
 * The contract's zod schemas, loaded on first use: an operation's query and body schemas on its
 * first call, every reply schema only under --debug. The promise is kept, because each `import()`
 * of a loaded module still resolves it again (~20 µs a row of a bulk run).
 */
function requestSchemasModule() {
  requestsLoaded ??= import('../contract/requests.js');
  return requestsLoaded;
}
function contractSchemas() {
  endpointsLoaded ??= import('../contract/endpoints.js');
  return endpointsLoaded;
}

/**
 * A successful reply must carry what the contract says it returns (./operations.ts `reply`); only
 * a shape of `none` or `record?` may be null or absent. Without this, a reply of `{"status":
 * "success"}` would reach the printer as a loan request of `null`.
 */
function requirePayload(def: OperationDef, result: ApiResult, check: () => string | undefined): void {
  // `exists` (a borrower's e-mail already known) carries only a message on the real service.
  if (result.status !== 'success') return;
  for (const part of ['data', 'data1'] as const) {
    const shape = def.reply[part];
    if (shape === undefined || shape === 'none' || shape.endsWith('?')) continue;
    const value = part === 'data' ? result.data : result.data1;
    if (value !== null && value !== undefined) continue;
    const command = def.method === 'GET' ? undefined : check();
    throw new NetworkError(
      `The API answered "${result.status}" to "${def.summary.toLowerCase()}" without the ${part} it returns (${shape}).`,
      command
        ? `The change was probably made; check with: ${command}`
        : "Try again; if it keeps happening, tell the API's operator.",
    );
  }
}

/** Transport errors of requests that provably never reached the server (see `neverSent`). */
const NEVER_SENT = new WeakSet<object>();

/**
 * True for a NetworkError thrown by the client when the request provably never reached the
 * server (connection refused, DNS, connect timeout): repeating it cannot apply it twice. False
 * for everything else, including a dropped connection or a timeout after sending, whose outcome
 * is unknown.
 */
export function neverSent(error: unknown): boolean {
  return typeof error === 'object' && error !== null && NEVER_SENT.has(error);
}

function stringify(query: Query): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value)]));
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function retryableStatus(status: number, method: HttpMethod): boolean {
  if (status === 429) return true; // refused before any work was done: safe for every method
  return method === 'GET' && (status === 502 || status === 503 || status === 504);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined if absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now.getTime());
}

interface TransportFailure {
  error: NetworkError;
  /** Short form for the retry notice. */
  short: string;
  /** The request provably never reached the server: safe to repeat whatever the method. */
  neverSent: boolean;
  /** Worth repeating at all (not a permanent failure like a bad certificate or an unknown host). */
  retryable: boolean;
}

export function transportFailure(error: unknown, url: URL, settings: Settings): TransportFailure {
  const code = errorCode(error);
  const host = url.host;
  const check = `Check the base URL (${describeBaseUrl(settings)}) and your network.`;
  const make = (message: string, hint: string, short: string, neverSent: boolean, retryable: boolean) => {
    const failure = new NetworkError(message, hint, { cause: error });
    if (neverSent) NEVER_SENT.add(failure);
    return { error: failure, short, neverSent, retryable };
  };
  if (code === REPLY_TOO_LARGE) {
    const limit = (error as { maxBytes: number }).maxBytes;
    return make(
      `The reply from ${host} is larger than ${bytes(limit)}; loanctl stopped reading it.`,
      `Ask for less (e.g. a smaller --limit), or check the base URL (${describeBaseUrl(settings)}).`,
      'reply too large',
      false,
      false,
    );
  }
  if ((error as Error)?.name === 'TimeoutError') {
    const limit = seconds(settings.timeoutMs);
    return make(
      `No complete reply from ${host} within ${limit}.`,
      'Try again, or allow longer with --timeout SECONDS.',
      'timed out',
      false,
      false,
    );
  }
  // Through a proxy, a refused or unknown host is the proxy's; and TLS failures have their own words.
  const known = proxyFailure(error, code, url) ?? tlsFailure(error, code, url);
  if (known) return make(known.message, known.hint, known.short, known.neverSent, known.retryable);
  if (code === CONNECT_TIMEOUT) {
    return make(`Could not connect to ${host}: the connection timed out.`, check, 'connect timed out', true, true);
  }
  if (code === 'ECONNREFUSED') {
    return make(
      `Could not connect to ${host}: connection refused.`,
      `Is the server running? ${check}`,
      'connection refused',
      true,
      true,
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA' || code === 'EAI_NONAME') {
    return make(
      `Could not resolve the host name ${url.hostname} (DNS ${code}).`,
      check,
      'DNS lookup failed',
      true,
      code === 'EAI_AGAIN',
    );
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') {
    return make(`Could not reach ${host} (${code}).`, check, `host unreachable`, true, true);
  }
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return make(
    `The connection to ${host} failed before a complete reply (${detail}).`,
    'Try again; if it keeps failing, check the base URL and your network.',
    `connection failed (${detail})`,
    false,
    true,
  );
}

/** A request given up because the run was stopped (Ctrl-C): whether it was applied is unknown. */
function abandoned(url: URL): NetworkError {
  return new NetworkError(`The request to ${url.host} was abandoned (the run was stopped).`);
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const candidate = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof candidate.code === 'string') return candidate.code;
    if (Array.isArray(candidate.errors) && candidate.errors.length > 0) current = candidate.errors[0];
    else current = candidate.cause;
  }
  return undefined;
}

function describeBaseUrl(settings: Settings): string {
  const url = settings.baseUrl ?? 'none';
  switch (settings.baseUrlSource) {
    case 'flag':
      return `--base-url ${url}`;
    case 'env':
      return `LOANCTL_BASE_URL=${url}`;
    case 'profile':
      return `${url} from profile "${settings.profile?.name}"`;
    default:
      return url;
  }
}

function authHint(settings: Settings): string {
  if (settings.apiKeySource === 'env') return 'Check the key in LOANCTL_API_KEY.';
  const name = settings.profile?.name ?? 'NAME';
  return `Check the key of profile "${name}", or set it again: loanctl profile add ${name} --base-url URL --api-key-stdin`;
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

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

/** Belt and braces: whatever a debug line says, the key never appears in it, in any form. */
export function redact(text: string, key: string | undefined): string {
  return redactText(text, key);
}

/** `32 MiB` for a whole number of MiB, else bytes. */
function bytes(count: number): string {
  const mib = count / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${count} bytes`;
}

/**
 * The global flags a check command needs to reach the same API as this run: those given on the
 * command line (the environment and the current profile carry over by themselves).
 */
function globalFlags(settings: Settings): string[] {
  const flags: string[] = [];
  if (settings.profile?.source === 'flag') flags.push('--profile', settings.profile.name);
  if (settings.baseUrlSource === 'flag' && settings.baseUrl) flags.push('--base-url', settings.baseUrl);
  return flags;
}
