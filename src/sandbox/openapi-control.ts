/**
 * The parts of the OpenAPI document (./openapi.ts) that are the sandbox's own, not the API's: the
 * `Prefer` header every operation honours (./prefer.ts) and the control plane's routes
 * (./control-routes.ts) under their own key. Written from the same constants those modules use.
 */

import { CONTROL_KEY_MESSAGES, REQUESTS_PATH } from './control-routes.js';
import { FLUSH_PATH } from './log/fresh.js';
import { MAX_REQUESTS } from './log/requests.js';
import { LOG_FIELDS } from './log/store.js';
import type { Json } from './openapi-replies.js';
import { MAX_PREFERRED_LATENCY_MS } from './prefer.js';

export const CONTROL_SCHEME = 'controlKey';

export const CONTROL_SECURITY_SCHEME: Json = {
  type: 'http',
  scheme: 'bearer',
  description:
    "The sandbox's control key (`loanctl sandbox start` prints it; `startSandbox()` gives it as `controlKey`): `Authorization: Bearer <control key>`. An organisation's API key does not open the control plane.",
};

export const PREFER_PARAMETER: Json = {
  name: 'Prefer',
  in: 'header',
  required: false,
  description: `Sandbox only: this request's own outcome, for this request alone and in the caller's organisation (the key is checked first). Comma-separated: \`code=503\` (answer with this HTTP status, a bare body as a gateway sends), \`envelope=error\` (the API's error envelope; HTTP 200 unless \`code\` says otherwise), \`latency=2s\` (wait first, up to ${MAX_PREFERRED_LATENCY_MS / 1000}s; alone, then serve as usual), \`drop\` (close the connection without a reply). The reply says what was applied in \`Preference-Applied\`; the request log records it. Other preferences are ignored.`,
  schema: { type: 'string' },
  examples: { unavailable: { value: 'code=503' }, slowError: { value: 'latency=2s, code=500, envelope=error' } },
};

const TEXT_OR_NULL = { type: ['string', 'null'] };

/** A request as the request log holds it (src/sandbox/log/store.ts `LogRow`). */
const RECORDED_REQUEST: Json = {
  type: 'object',
  required: LOG_FIELDS,
  properties: {
    id: { type: 'integer' },
    time: { type: 'string', format: 'date-time', description: 'When its reply was sent (UTC, the wall clock)' },
    org_id: { type: ['integer', 'null'] },
    method: { type: 'string' },
    path: { type: 'string' },
    query: { type: 'string', description: "The query string without '?'; '' when none" },
    http: { type: 'integer', description: '499: its client left first; 444: dropped as its Prefer asked' },
    status: { ...TEXT_OR_NULL, description: "The envelope's status; null when the reply was not one" },
    ms: { type: 'number' },
    why: { ...TEXT_OR_NULL, description: 'Why it was refused, or which fault or Prefer header answered it' },
    request_body: { ...TEXT_OR_NULL, description: 'JSON text, passwords and keys hidden, cut at 2,048 characters' },
    reply_body: TEXT_OR_NULL,
    ended: { type: 'string', enum: ['answered', 'client gone', 'dropped'] },
    prefer: { ...TEXT_OR_NULL, description: 'What its Prefer header asked for' },
    violations: {
      type: ['array', 'null'],
      description: '`loanctl sandbox proxy` only: where the request or its reply broke the contract',
      items: {
        type: 'object',
        properties: {
          operation: { type: 'string' },
          side: { type: 'string', enum: ['request', 'reply'] },
          path: { type: 'string' },
          expected: { type: 'string' },
          received: { type: 'string' },
        },
      },
    },
  },
};

const query = (name: string, description: string, schema: Json = { type: 'string' }) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

const unauthorised: Json = {
  description: "No control key, or not this sandbox's",
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/ErrorEnvelope' },
      example: { status: 'error', message: CONTROL_KEY_MESSAGES.wrong },
    },
  },
};

export function controlPaths(): Record<string, Json> {
  const security = [{ [CONTROL_SCHEME]: [] }];
  return {
    [REQUESTS_PATH]: {
      get: {
        operationId: 'sandboxRequests',
        summary: 'The requests the sandbox received, oldest first (sandbox only)',
        description:
          'For a test suite in any language: every request is here the moment its reply has been sent. These routes are not themselves logged.',
        tags: ['Sandbox control'],
        security,
        parameters: [
          query('method', 'Only this method: GET, POST, …'),
          query('path', 'Only paths matching this glob (`*` within a segment, `**` across)'),
          query('status', 'Comma-separated: 2xx, 4xx, 5xx, an HTTP code, success, error, exists, no-access, refused'),
          query('since', 'An ISO 8601 time, or a duration back from now (10m)'),
          query(`limit`, `At most this many, the newest (default and most: ${MAX_REQUESTS})`, {
            type: 'integer',
            minimum: 1,
            maximum: MAX_REQUESTS,
          }),
        ],
        responses: {
          '200': {
            description: 'The matching requests in `data`',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['status', 'message', 'data'],
                  properties: {
                    status: { const: 'success' },
                    message: { type: 'string' },
                    data: { type: 'array', items: RECORDED_REQUEST },
                  },
                },
              },
            },
          },
          '400': {
            description: 'A parameter that is not one',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
          },
          '401': unauthorised,
        },
      },
    },
    [FLUSH_PATH]: {
      post: {
        operationId: 'sandboxFlushRequests',
        summary: 'Commit the request log now, for a reader of its file (sandbox only)',
        description:
          '`loanctl sandbox logs` and `sandbox verify` call it before they read the log of a running sandbox.',
        tags: ['Sandbox control'],
        security,
        responses: {
          '200': {
            description: 'Every request answered so far is in the log',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
          },
          '401': unauthorised,
        },
      },
    },
  };
}
