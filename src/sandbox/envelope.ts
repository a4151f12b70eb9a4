/** The reply envelope (spec 2.1) and the failures a handler can answer with. */
import type { EndpointDef } from '../contract/endpoints.js';
import { type ErrorName, type OperationDef, type OperationKey, operation } from '../contract/operations.js';
import type { EnvelopeStatus } from '../contract/schemas.js';
import { SOMETHING_WENT_WRONG } from '../contract/vocabulary.js';

export interface Outcome {
  /** HTTP status code; 200 unless said otherwise. */
  http?: number;
  status: EnvelopeStatus;
  message: string;
  /** The payload of a success or `exists`; an error or no-access reply has none (see `envelope`). */
  data?: unknown;
  /** Present only on the replies where the spec carries it. */
  data1?: unknown;
}

/**
 * The reply's JSON. An `error` or `no-access` reply carries only `status` and `message`, as the
 * real service's published examples do (`{"status":"error","message":"Product ID is required"}`),
 * so a client tested against the sandbox copes with the replies it will meet.
 */
export function envelope(outcome: Outcome) {
  const { status, message, data } = outcome;
  if (isFailure(status)) return { status, message };
  return 'data1' in outcome ? { status, message, data, data1: outcome.data1 } : { status, message, data };
}

/**
 * Data already written as JSON text (a page of records SQLite wrote: ./serialize.ts `jsonSql`),
 * which a reply carries as it is.
 */
export class JsonText {
  constructor(readonly text: string) {}

  /** A plain object's text as JSON.stringify writes it, each JsonText among its values written as it is. */
  static object(members: Readonly<Record<string, unknown>>): JsonText {
    const written: string[] = [];
    for (const [key, value] of Object.entries(members)) {
      const text = value instanceof JsonText ? value.text : JSON.stringify(value);
      // JSON.stringify leaves out a member it cannot write (undefined).
      if (text !== undefined) written.push(`${JSON.stringify(key)}:${text}`);
    }
    return new JsonText(`{${written.join(',')}}`);
  }
}

/** The reply's body: the envelope as Fastify writes it (JSON.stringify), or its text when it carries JsonText. */
export function replyBody(outcome: Outcome): object | string {
  const body = envelope(outcome);
  const carriesText = outcome.data instanceof JsonText || outcome.data1 instanceof JsonText;
  return carriesText ? JsonText.object(body).text : body;
}

/** The statuses whose reply carries only `status` and `message`. */
export const FAILURE_STATUSES = ['error', 'no-access'] as const;

function isFailure(status: EnvelopeStatus): status is (typeof FAILURE_STATUSES)[number] {
  return status === FAILURE_STATUSES[0] || status === FAILURE_STATUSES[1];
}

/** A reply other than success, thrown from anywhere in a request; a writing request rolls back. */
export class SandboxReply extends Error {
  readonly outcome: Outcome;

  constructor(outcome: Outcome) {
    super(outcome.message);
    this.outcome = outcome;
  }
}

export function fail(http: number, message: string): SandboxReply {
  return new SandboxReply({ http, status: 'error', message });
}

export type { ErrorName } from '../contract/operations.js';

/** The failure `name` of operation `key`, as its contract row says it (src/contract/table/). */
export function refuse<K extends OperationKey>(key: K, name: ErrorName<K>): SandboxReply {
  const found = (operation(key) as OperationDef).errors?.[name];
  if (!found) throw new Error(`operation ${key} has no error reply ${name}`);
  return new SandboxReply({ http: found.http, status: found.status, message: found.message });
}

/** The longest Authorization header the sandbox reads: a sandbox key with its scheme is 50 characters. */
export const LONGEST_AUTHORIZATION = 1024;

export const MESSAGES = {
  keyMissing: 'API key is missing. Send the header "Authorization: Bearer <API_KEY>".',
  keyInvalid: 'API key is invalid. Check the key, or create one with "loanctl sandbox org create".',
  keyTooLong: `The Authorization header is too long to hold an API key (at most ${LONGEST_AUTHORIZATION} characters). Send "Authorization: Bearer <API_KEY>".`,
  productRequired: 'Product ID is required',
  noAccessUser: 'You do not have access to this user. Please verify the user id',
  noAccessLoanRequest: 'You do not have access to this loan request. Please verify the loan request id',
  noAccessProduct: 'You do not have access to this product. Please verify the product id',
  somethingWentWrong: SOMETHING_WENT_WRONG,
  diskFull:
    "The sandbox's disk is full: nothing of this request was saved. Free some space where the sandbox keeps its data (its operator sees where), then send it again.",
  bodyTooLarge: 'Request body is too large: the limit is 1 MiB',
  unsupportedContentType: 'Unsupported Content-Type: send JSON with "Content-Type: application/json"',
} as const;

/** What a no-access reply of `def` says: the most specific of the user, loan request or product it names. */
export function noAccessMessage(def: Pick<EndpointDef, 'pathParams'>): string {
  if (def.pathParams.includes('user_id')) return MESSAGES.noAccessUser;
  if (def.pathParams.includes('id')) return MESSAGES.noAccessLoanRequest;
  return MESSAGES.noAccessProduct;
}

export function noAccess(message: string): SandboxReply {
  return new SandboxReply({ status: 'no-access', message });
}
