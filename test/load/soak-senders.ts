/**
 * The two ways the soak's clients reach the sandbox (test/load/soak.load.ts): the CLI's own HTTP
 * client in-process (src/http/client.ts: its pool, retries, reply mapping), and raw `node:http`.
 * Both say the same thing about each request, an `Outcome`:
 *
 * - `reply`: a complete HTTP reply came back; `envelope` is the API's envelope (spec 2.1) it
 *   carried, or undefined when the body was something else (the soak counts those: there must be
 *   none);
 * - `not-sent`: the request provably never reached the server (connection refused while the
 *   sandbox restarts): safe to send again, whatever the method;
 * - `unknown`: it may have reached the server and got no complete answer (the sandbox was killed
 *   with the request in flight): a write's outcome is unknown, so it is not acknowledged.
 */
import { type Agent, request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import type { Io } from '../../src/basics.js';
import type { Settings } from '../../src/config/settings.js';
import type { EndpointKey } from '../../src/contract/endpoints.js';
import { fillPath, operation } from '../../src/contract/operations.js';
import { type Envelope, isEnvelope } from '../../src/contract/vocabulary.js';
import { LoanctlError, NetworkError } from '../../src/errors.js';
import type { CallOptions } from '../../src/http/api-client.js';
import { createApiClient } from '../../src/http/client.js';
import { neverSent } from '../../src/http/network-failure.js';

export interface Request {
  key: EndpointKey;
  params?: Record<string, number>;
  query?: Record<string, string | number>;
  body?: unknown;
}

export type Outcome =
  | { kind: 'reply'; http: number; envelope: Envelope | undefined; body: string }
  | { kind: 'not-sent' }
  | { kind: 'unknown'; why: string };

export interface Sender {
  /** `cli` or `raw`, for the report. */
  readonly via: string;
  send(request: Request): Promise<Outcome>;
  close(): Promise<void>;
}

export interface Target {
  url: string;
  key: string;
  product: number;
}

/** Long enough never to fire on loopback; a killed sandbox resets its connections at once. */
const TIMEOUT_MS = 10_000;

// ---------------------------------------------------------------------------------------------
// The CLI's client

function discard(): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
}

/** The CLI's client as a command would build it, its retry notices dropped (a restart makes many). */
export function cliSender(target: Target): Sender {
  const settings: Settings = {
    profile: undefined,
    baseUrl: target.url,
    baseUrlSource: 'flag',
    apiKey: target.key,
    apiKeySource: 'env',
    productId: target.product,
    productIdSource: 'env',
    orgId: undefined,
    timeoutMs: TIMEOUT_MS,
    debug: false,
    dryRun: false,
  };
  const io = { stdin: process.stdin, stdout: discard(), stderr: discard() } as Io;
  const client = createApiClient(settings, { io });
  return {
    via: 'cli',
    async send(request) {
      try {
        // The soak's requests are data (any operation, any body): the client checks them at run time.
        const options: CallOptions = {
          ...(request.params && { params: request.params as never }),
          ...(request.query && { query: request.query }),
          ...(request.body !== undefined && { body: request.body as never }),
        };
        const result = await client.call(request.key, options);
        return { kind: 'reply', http: result.httpStatus, envelope: result.envelope, body: result.rawBody };
      } catch (error) {
        // An error made from a reply carries it: an envelope with status error/no-access, or a
        // body that is not the envelope at all (the client's exit 5).
        if (error instanceof LoanctlError && error.reply) {
          const { httpStatus, envelope, rawBody } = error.reply;
          // The client keeps `envelope` only when the body was one (src/http/reply.ts).
          return { kind: 'reply', http: httpStatus, envelope: envelope as Envelope | undefined, body: rawBody };
        }
        if (error instanceof NetworkError) {
          return neverSent(error) ? { kind: 'not-sent' } : { kind: 'unknown', why: error.message };
        }
        throw error;
      }
    },
    close: () => client.close({ abort: true }),
  };
}

// ---------------------------------------------------------------------------------------------
// Raw node:http

/** The envelope in a reply body, judged as the contract does (spec 2.1); undefined when it is not one. */
function envelopeOf(body: string): Envelope | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return isEnvelope(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Requests built by hand from the contract table (method, path, product-id), sent on a shared keep-alive agent. */
export function rawSender(target: Target, agent: Agent): Sender {
  return {
    via: 'raw',
    send(request) {
      const def = operation(request.key);
      const url = new URL(target.url + fillPath(def.path, request.params ?? {}));
      if (def.productId) url.searchParams.set('product-id', String(target.product));
      for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, String(value));
      const body = request.body === undefined ? undefined : JSON.stringify(request.body);
      return new Promise<Outcome>((resolve) => {
        const req = httpRequest(
          url,
          {
            method: def.method,
            agent,
            timeout: TIMEOUT_MS,
            headers: {
              authorization: `Bearer ${target.key}`,
              accept: 'application/json',
              ...(body !== undefined && { 'content-type': 'application/json' }),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', (error) => resolve({ kind: 'unknown', why: error.message }));
            res.on('end', () => {
              // A reply cut off by the kill is no answer: its write may or may not have been applied.
              if (!res.complete) return resolve({ kind: 'unknown', why: 'reply cut off' });
              const text = Buffer.concat(chunks).toString('utf8');
              resolve({ kind: 'reply', http: res.statusCode ?? 0, envelope: envelopeOf(text), body: text });
            });
          },
        );
        req.on('timeout', () => req.destroy(new Error(`no reply within ${TIMEOUT_MS} ms`)));
        req.on('error', (error: NodeJS.ErrnoException) => {
          resolve(error.code === 'ECONNREFUSED' ? { kind: 'not-sent' } : { kind: 'unknown', why: error.message });
        });
        req.end(body);
      });
    },
    close: async () => {},
  };
}
