/**
 * The success replies the OpenAPI document quotes as examples (./openapi-examples.ts), recorded
 * from the sandbox itself: one borrower's journey through every operation of the contract, against
 * a sandbox on a temporary data dir with a fixed clock, over `app.inject`. So an example is what the
 * sandbox really answers, and a tool fed the document (Prism's mock) answers data that fits the
 * document's own schemas.
 *
 * The journey is read off the contract, so a new operation needs no line here:
 * - Order: the writes that build a loan request up (and its borrower), in the table's order; then
 *   the state table's moves (src/contract/states.ts), stage after stage; then the reads, which so
 *   show everything; last the deletes and any move that cannot start where the journey's loan
 *   request is (an ending other than approval), each on a loan request created for it. A row that
 *   needs another's effect comes after it in the table (tokenize after the bank details).
 * - Path parameters: the `id` of the latest record an earlier reply carried of the resource the
 *   placeholder names (`:user_id` a user, `/loan_request/:id` a loan request). While the next write
 *   lacks one, the next read runs (the user list carries the borrower's id).
 * - Query parameters: a literal's value, else the value sent before under the same name (the
 *   borrower's e-mail), else the parameter's example, else (when required) its kind's sample.
 * - Bodies: each field's example (src/contract/fields.ts), else for a required field its kind's
 *   sample; an optional field without an example is left out.
 *
 * `scripts/gen-openapi-examples.mjs` (`npm run openapi-examples`) writes them; the tests regenerate
 * them in memory and fail when the stored ones are stale (test/sandbox/openapi-examples.test.ts).
 */
import { hash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type EndpointKey, fillPath } from '../contract/endpoints.js';
import { type FieldDef, type FieldKind, sampleValue } from '../contract/fields.js';
import { OPERATIONS, type OperationDef, operation, type QueryParam, replyRecord } from '../contract/operations.js';
import { FIRST_STAGE, STAGES, type Stage, TRANSITIONS } from '../contract/states.js';
import { createOrganisation, createProduct } from './admin.js';
import { buildSandbox } from './app.js';
import { dbPathFor } from './db.js';

/** The examples' clock: fixed, so regenerating them gives the same file. */
export const EXAMPLES_NOW = new Date('2026-03-02T09:30:00.000Z');

export type SuccessExamples = Record<EndpointKey, Record<string, unknown>>;

export type Envelope = Record<string, unknown>;
/** The id of the latest record of each kind a reply carried (`loanRequest` → 1). */
type Ids = Map<string, number>;

export interface Step {
  key: EndpointKey;
  params: Record<string, number>;
  query: Record<string, string>;
  body?: Record<string, unknown>;
}

const def = (key: EndpointKey) => operation(key) as OperationDef;
const keys = (rows: readonly OperationDef[]) => rows.map((row) => row.key as EndpointKey);
/** The state table's move of an operation, if it makes one. */
const moveOf = (key: string) => TRANSITIONS.find((move) => move.operation === key);
/** The kind of sample a query parameter's type takes. */
const QUERY_KINDS: Record<Exclude<QueryParam['type'], 'literal'>, FieldKind> = {
  email: 'email',
  date: 'date',
  text: 'text',
  'positive-int': 'count',
  'non-negative-int': 'whole',
};

/** Every operation's success envelope, as the sandbox answers it on the journey. */
export async function recordSuccessExamples(): Promise<SuccessExamples> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loanctl-openapi-examples-'));
  const now = () => EXAMPLES_NOW;
  try {
    const org = createOrganisation(dataDir, 'Example Lender', { now });
    const { product_id } = createProduct(dataDir, org.org_id, 'Working Capital Loan', { now });
    const app = await buildSandbox({
      dbPath: dbPathFor(dataDir),
      now,
      onError: (error) => {
        throw error;
      },
    });
    try {
      const journey = new Journey((step) => send(app, org.api_key, product_id, step), org.org_id);
      return steadied(await journey.walk());
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The journey through every operation with `send` carrying each step: what `sandbox proxy`'s test
 * sends through the proxy. Each step must succeed; its replies, as the examples.
 */
export function walkEveryOperation(
  send: (step: Step) => Promise<{ http: number; envelope: Envelope }>,
  orgId: number,
): Promise<SuccessExamples> {
  return new Journey(send, orgId).walk();
}

/** One walk through the contract, remembering what it sent and what the replies carried. */
class Journey {
  private readonly examples: Partial<SuccessExamples> = {};
  private readonly ids: Ids = new Map();
  private readonly sent = new Map<string, unknown>();

  constructor(
    private readonly send: (step: Step) => Promise<{ http: number; envelope: Envelope }>,
    private readonly orgId: number,
  ) {}

  async walk(): Promise<SuccessExamples> {
    const creation = TRANSITIONS.find((move) => move.from.length === 0);
    const reads = keys(OPERATIONS.filter((row) => row.method === 'GET'));
    const deletes = keys(OPERATIONS.filter((row) => row.method === 'DELETE'));
    const builds = keys(OPERATIONS).filter(
      (key) =>
        !reads.includes(key) && !deletes.includes(key) && (moveOf(key) === undefined || key === creation?.operation),
    );
    await this.build(builds, reads);
    // The stage the journey's loan request is in; a move that cannot start there gets one of its own.
    let stage: Stage | undefined = creation?.to;
    const ownLoanRequest = [...deletes];
    for (const move of [...TRANSITIONS].sort(byStage)) {
      if (move === creation) continue;
      if (stage !== undefined && (move.from as readonly Stage[]).includes(stage)) {
        await this.record(this.step(move.operation as EndpointKey, this.ids));
        stage = move.to;
      } else ownLoanRequest.push(move.operation as EndpointKey);
    }
    for (const key of reads) await this.record(this.step(key, this.ids));
    for (const key of ownLoanRequest) await this.record(this.step(key, await this.freshIds(creation?.operation, key)));
    return this.examples as SuccessExamples;
  }

  /** The building writes, in the table's order; while the next one lacks an id, the next read runs to learn it. */
  private async build(writes: EndpointKey[], reads: EndpointKey[]): Promise<void> {
    for (const write of writes) {
      while (!this.knows(write)) {
        const read = reads.find((key) => this.knows(key));
        if (read === undefined)
          throw new Error(`cannot record ${write}: no reply before it carries ${this.unknown(write)}`);
        reads.splice(reads.indexOf(read), 1);
        await this.record(this.step(read, this.ids));
      }
      await this.record(this.step(write, this.ids));
    }
  }

  /**
   * Sends a step and keeps its reply as the operation's example (the first success) and its ids;
   * anything but a success stops the recording, saying which step.
   */
  private async record(step: Step): Promise<void> {
    const { http, envelope } = await this.send(step);
    if (http !== 200 || envelope.status !== 'success') {
      throw new Error(
        `${step.key} did not succeed (HTTP ${http}): ${JSON.stringify(envelope)}. A row that needs another's effect comes after it in the table`,
      );
    }
    this.examples[step.key] ??= envelope;
    for (const [name, value] of Object.entries(step.body ?? {})) if (!this.sent.has(name)) this.sent.set(name, value);
    this.remember(this.ids, step.key, envelope);
  }

  /** The ids of a reply's records (a list's first), under their record's name. */
  private remember(ids: Ids, key: EndpointKey, envelope: Envelope): void {
    const { reply } = def(key);
    for (const [payload, shape] of [
      [envelope.data, reply.data],
      [envelope.data1, reply.data1],
    ] as const) {
      const name = shape && replyRecord(shape);
      const record = (Array.isArray(payload) ? payload[0] : payload) as { id?: unknown } | null | undefined;
      if (name === undefined || typeof record?.id !== 'number') continue;
      ids.delete(name);
      ids.set(name, record.id);
    }
  }

  /** The ids with a loan request of `key`'s own in place of the journey's, made by the creating move. */
  private async freshIds(creating: string | undefined, key: EndpointKey): Promise<Ids> {
    const move = moveOf(key);
    if (creating === undefined || (move !== undefined && !move.from.includes(FIRST_STAGE))) {
      throw new Error(`cannot record ${key}: it needs a loan request of its own, in a stage the journey cannot make`);
    }
    const step = this.step(creating as EndpointKey, this.ids);
    const { http, envelope } = await this.send(step);
    if (http !== 200 || envelope.status !== 'success') {
      throw new Error(`${step.key}, for ${key}, did not succeed (HTTP ${http}): ${JSON.stringify(envelope)}`);
    }
    const ids = new Map(this.ids);
    this.remember(ids, step.key, envelope);
    return ids;
  }

  private knows(key: EndpointKey): boolean {
    return def(key).pathParams.every((name) => this.idFor(this.ids, key, name) !== undefined);
  }

  /** The path parameters of `key` no reply has carried yet, as `:user_id`. */
  private unknown(key: EndpointKey): string {
    return def(key)
      .pathParams.filter((name) => !this.idFor(this.ids, key, name))
      .map((name) => `:${name}`)
      .join(', ');
  }

  /** A path parameter's value: the latest id of the resource it names (`:user_id` a user, `loan_request/:id` a loan request). */
  private idFor(ids: Ids, key: EndpointKey, name: string): number | undefined {
    const segments = def(key).path.split('/');
    const resource = name === 'id' ? (segments[segments.indexOf(':id') - 1] ?? '') : name.replace(/_id$/, '');
    const record = resource.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    return [...ids].findLast(([found]) => found.startsWith(record))?.[1];
  }

  private step(key: EndpointKey, ids: Ids): Step {
    const row = def(key);
    const params = Object.fromEntries(row.pathParams.map((name) => [name, this.idFor(ids, key, name) ?? 0]));
    const query = Object.fromEntries(
      Object.entries(row.query).flatMap(([name, param]) => {
        const value = this.queryValue(name, param);
        return value === undefined ? [] : [[name, value]];
      }),
    );
    return { key, params, query, ...(row.body && { body: this.body(row.body) }) };
  }

  private queryValue(name: string, param: QueryParam): string | undefined {
    if (param.type === 'literal') return param.value;
    const value =
      this.sent.get(name) ??
      param.example ??
      (param.optional ? undefined : this.sample({ name, kind: QUERY_KINDS[param.type], help: '' }));
    return value === undefined ? undefined : String(value);
  }

  private body(fields: readonly FieldDef[]): Record<string, unknown> {
    const sent = fields.filter((field) => field.example !== undefined || field.required);
    return Object.fromEntries(sent.map((field) => [field.name, field.example ?? this.sample(field)]));
  }

  private sample(field: FieldDef): unknown {
    return sampleValue(field, { orgId: this.orgId, serial: 1 });
  }
}

/** Moves in the order of the stages they lead to; one to a stage the table does not list, last. */
function byStage(a: { to: string }, b: { to: string }): number {
  const rank = (stage: string) => {
    const index = (STAGES as readonly string[]).indexOf(stage);
    return index === -1 ? STAGES.length : index;
  };
  return rank(a.to) - rank(b.to);
}

/**
 * The examples with each value the sandbox draws at random (./secrets.ts: a record's `reference`, a
 * linker id) in place of a stand-in of the same shape, the same for the same value: so
 * regenerating them gives the same file, and a loan request's reference is the same in every reply.
 */
function steadied(examples: SuccessExamples): SuccessExamples {
  const standIns = new Map<string, string>();
  const standIn = (random: string) => {
    const [, prefix = '', body = ''] = /^(lnk_)?(.*)$/.exec(random) ?? [];
    if (!standIns.has(random)) {
      const drawn = hash('sha256', String(standIns.size), 'base64').replace(/[^A-Za-z0-9]/g, '');
      standIns.set(random, `${prefix}${drawn.slice(0, body.length)}`);
    }
    return standIns.get(random);
  };
  return JSON.parse(
    JSON.stringify(examples, (key, value) =>
      typeof value === 'string' && (key === 'reference' || value.startsWith('lnk_')) ? standIn(value) : value,
    ),
  );
}

/** A step sent to the sandbox, with the product's id where the operation takes one. */
async function send(
  app: FastifyInstance,
  apiKey: string,
  productId: number,
  step: Step,
): Promise<{ http: number; envelope: Envelope }> {
  const row = def(step.key);
  const search = new URLSearchParams(step.query);
  if (row.productId) search.set('product-id', String(productId));
  const query = search.toString();
  const reply = await app.inject({
    method: row.method,
    url: `${fillPath(row.path, step.params)}${query ? `?${query}` : ''}`,
    headers: { authorization: `Bearer ${apiKey}` },
    ...(step.body && { payload: step.body }),
  });
  return { http: reply.statusCode, envelope: JSON.parse(reply.body) as Envelope };
}
