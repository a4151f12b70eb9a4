/**
 * The replies every operation of the OpenAPI document (./openapi.ts) may get besides its success:
 * the envelope of an error (spec 2.1, §7) and the HTTP statuses the sandbox answers it with
 * (./app.ts, ./busy.ts, ./envelope.ts). The messages are the sandbox's own (MESSAGES, BUSY_MESSAGE),
 * quoted as examples, so the document says what a client will really read.
 */

import type { EndpointDef } from '../contract/endpoints.js';
import { ENVELOPE_STATUSES } from '../contract/vocabulary.js';
import { BUSY_MESSAGE } from './busy.js';
import { FAILURE_STATUSES, MESSAGES, noAccessMessage } from './envelope.js';

export type Json = Record<string, unknown>;

/** The statuses whose reply carries the payload (not FAILURE_STATUSES): `success`, and `exists` (a create that found it). */
const PAYLOAD_STATUSES = ENVELOPE_STATUSES.filter(
  (status) => !(FAILURE_STATUSES as readonly string[]).includes(status),
);

const ERROR_ENVELOPE = 'ErrorEnvelope';
const ENVELOPE = 'Envelope';

/** `components.schemas`: the envelope as any reply has it, and as a failure has it. */
export function envelopeSchemas(): Record<string, Json> {
  return {
    [ENVELOPE]: {
      type: 'object',
      description:
        'Every reply body (spec 2.1). `data` is the payload; `data1` a second payload some operations carry. A reply of status `error` or `no-access` has neither.',
      required: ['status', 'message'],
      properties: {
        status: { type: 'string', enum: [...ENVELOPE_STATUSES] },
        message: { type: 'string', description: 'Human-readable text' },
        data: { description: 'The payload: object, array, string, boolean or null' },
        data1: { description: 'The second payload (the loan request, or null), where the operation carries it' },
      },
    },
    [ERROR_ENVELOPE]: {
      description:
        'A failure: `error`, or `no-access` when a user, loan request or product is not in your organisation. No `data`: the real service omits it on its error replies.',
      allOf: [ref(ENVELOPE), { properties: { status: { enum: [...FAILURE_STATUSES] } } }],
    },
  };
}

/** The envelope of a successful reply of an operation: its own `data` (and `data1`) schemas. */
export function successEnvelope(data: Json, data1: Json | undefined): Json {
  return {
    allOf: [
      ref(ENVELOPE),
      {
        required: ['data', ...(data1 ? ['data1'] : [])],
        properties: {
          status: {
            enum: [...PAYLOAD_STATUSES],
            description: '`exists` when a create found the record already there (create user); `data` then holds it',
          },
          data,
          ...(data1 && { data1 }),
        },
      },
    ],
  };
}

interface ErrorReply {
  http: string;
  description: string;
  /** Which operations can get it; every one when absent. */
  applies?: (def: EndpointDef) => boolean;
  examples: Record<string, { status: (typeof FAILURE_STATUSES)[number]; message: string }>;
}

const carriesBody = (def: EndpointDef) => def.body !== undefined;

/** The replies of spec §7 and of the sandbox's checks, in the order it makes them (./app.ts). */
const ERROR_REPLIES: readonly ErrorReply[] = [
  {
    http: '400',
    description: 'A query parameter or body field is invalid (the message names every one), or the body is not JSON',
    examples: {
      invalid: { status: 'error', message: 'Invalid fields: body.email must be an e-mail address' },
    },
  },
  {
    http: '401',
    description: 'The `Authorization: Bearer <API_KEY>` header is missing, or the key is not known',
    examples: {
      missing: { status: 'error', message: MESSAGES.keyMissing },
      invalid: { status: 'error', message: MESSAGES.keyInvalid },
    },
  },
  {
    http: '404',
    description: 'No such operation at this method and path',
    examples: { unknown: { status: 'error', message: 'No such operation: GET /api/v1/nothing' } },
  },
  {
    http: '413',
    description: 'The request body is over 1 MiB',
    applies: carriesBody,
    examples: { tooLarge: { status: 'error', message: MESSAGES.bodyTooLarge } },
  },
  {
    http: '415',
    description: 'The body is not sent as `Content-Type: application/json`',
    applies: carriesBody,
    examples: { mediaType: { status: 'error', message: MESSAGES.unsupportedContentType } },
  },
  {
    http: '500',
    description: 'Something went wrong: an unexpected error',
    examples: { failed: { status: 'error', message: MESSAGES.somethingWentWrong } },
  },
  {
    http: '503',
    description: 'The sandbox database is locked by another process; nothing was changed',
    examples: { busy: { status: 'error', message: BUSY_MESSAGE } },
  },
];

/**
 * The documented error replies of `def`, as OpenAPI response objects keyed by HTTP status: the
 * ones every operation may get, and its own (its contract row's `errors`), merged where they
 * share a status.
 */
export function errorResponses(def: EndpointDef): Record<string, Json> {
  const replies = ERROR_REPLIES.filter((reply) => !reply.applies || reply.applies(def)).map((reply) => ({ ...reply }));
  for (const [name, own] of Object.entries(def.errors ?? {})) {
    if (own.http === 200) continue; // a 200 failure is in the success reply's `oneOf` (failureEnvelope)
    const http = String(own.http);
    const example = { [name]: { status: own.status, message: own.message } };
    const shared = replies.find((reply) => reply.http === http);
    if (shared) {
      shared.description = `${shared.description}; or ${own.when}`;
      shared.examples = { ...shared.examples, ...example };
    } else {
      replies.push({ http, description: capitalised(own.when), examples: example });
    }
  }
  const responses: Record<string, Json> = {};
  for (const reply of replies.sort((a, b) => a.http.localeCompare(b.http))) {
    responses[reply.http] = {
      description: reply.description,
      content: {
        'application/json': {
          schema: ref(ERROR_ENVELOPE),
          examples: Object.fromEntries(Object.entries(reply.examples).map(([name, value]) => [name, { value }])),
        },
      },
    };
  }
  return responses;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The 200 replies of status `error` and `no-access` (spec §7) an operation may get: its failure
 * branch, with them as the schema's `examples`. Not as the response's own examples: a mock server
 * (Prism) answers with the first of those, and should answer with a success.
 */
export function failureEnvelope(def: EndpointDef): Json {
  const examples: Json[] = [];
  if (def.productId) examples.push({ status: 'error', message: MESSAGES.productRequired });
  for (const own of Object.values(def.errors ?? {})) {
    if (own.http === 200) examples.push({ status: own.status, message: own.message });
  }
  if (def.productId || def.pathParams.length > 0) {
    examples.push({ status: 'no-access', message: noAccessMessage(def) });
  }
  return { ...ref(ERROR_ENVELOPE), ...(examples.length > 0 && { examples }) };
}

function ref(name: string): Json {
  return { $ref: `#/components/schemas/${name}` };
}
