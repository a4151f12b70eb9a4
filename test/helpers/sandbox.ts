/**
 * The one in-process sandbox of the tests: a sandbox on a temporary data dir with one organisation
 * and product — over `app.inject`, or listening on a free loopback port (`listen: true`) for the
 * real CLI run in-process by ./run-cli.ts — a typed way to call an operation of the contract table
 * over `app.inject`, valid sample bodies for every operation, and a snapshot of every table (to
 * prove that a request changed nothing).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, type EndpointDef, type EndpointKey, endpointDef, fillPath } from '../../src/contract/endpoints.js';
import { BODY_FIELDS, type FieldDef, sampleValue } from '../../src/contract/fields.js';
import { carriesBody, operation, type QuerySpec } from '../../src/contract/operations.js';
import { Envelope } from '../../src/contract/schemas.js';
import { FIRST_STAGE, type Stage, startStages, TRANSITIONS } from '../../src/contract/states.js';
import { createOrganisation, createProduct } from '../../src/sandbox/admin.js';
import { buildSandbox } from '../../src/sandbox/app.js';
import { dbPathFor } from '../../src/sandbox/db.js';
import type { ObserveOptions } from '../../src/sandbox/observe.js';

export const FIXED_NOW = new Date('2026-03-02T09:30:00.123Z');

export interface Org {
  org_id: number;
  api_key: string;
  product_id: number;
}

export interface TestSandbox {
  app: FastifyInstance;
  /** Where it listens, e.g. `http://127.0.0.1:40123` (`listen: true` only; '' otherwise). */
  url: string;
  dataDir: string;
  dbPath: string;
  org: Org;
  /** Advances the sandbox's clock. */
  setNow(date: Date): void;
  addOrg(name: string): Org;
  close(): Promise<void>;
}

export function tempDir(prefix = 'loanctl-sandbox-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface OpenSandboxOptions {
  dataDir?: string;
  /** The sandbox's clock. Default: FIXED_NOW over `app.inject`, the real clock when it listens. */
  now?: Date;
  org?: Org;
  /** Listen on 127.0.0.1, on a free port, so a real client can reach it (the CLI's tests). */
  listen?: boolean;
  /** Limits and request log settings (src/sandbox/observe.ts). */
  observe?: ObserveOptions;
}

/** A sandbox on a new temporary data dir (or `dataDir`), with a new organisation (or the given `org`). */
export async function openSandbox(options: OpenSandboxOptions = {}): Promise<TestSandbox> {
  const dataDir = options.dataDir ?? tempDir();
  // The CLI's tests compare with today's date (`--end today`): a listening sandbox keeps real time.
  let now: Date | undefined = options.now ?? (options.listen ? undefined : FIXED_NOW);
  const addOrg = (name: string): Org => {
    const org = createOrganisation(dataDir, name);
    const product = createProduct(dataDir, org.org_id, `${name} Loan`);
    return { ...org, product_id: product.product_id };
  };
  const org = options.org ?? addOrg('First Lender');
  const app = await buildSandbox({
    dbPath: dbPathFor(dataDir),
    now: () => now ?? new Date(),
    ...options.observe,
    onError: (error) => {
      throw error;
    },
  });
  const url = options.listen ? await listenOnLoopback(app) : '';
  return {
    app,
    url,
    dataDir,
    dbPath: dbPathFor(dataDir),
    org,
    setNow: (date) => {
      now = date;
    },
    addOrg,
    close: async () => {
      await app.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the sandbox has no port');
  return `http://127.0.0.1:${address.port}`;
}

export interface CallOptions {
  key?: string | null;
  params?: Record<string, string | number>;
  /** undefined → no product-id at all. */
  productId?: string | number;
  query?: Record<string, string | number>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface CallResult {
  http: number;
  json: Envelope & Record<string, unknown>;
  raw: string;
}

export function urlFor(def: EndpointDef, options: CallOptions): string {
  const params = Object.fromEntries(def.pathParams.map((name) => [name, options.params?.[name] ?? 1]));
  const search = new URLSearchParams();
  if (options.productId !== undefined) search.set('product-id', String(options.productId));
  for (const [name, value] of Object.entries(options.query ?? {})) search.set(name, String(value));
  const qs = search.toString();
  return `${fillPath(def.path, params)}${qs ? `?${qs}` : ''}`;
}

/** Calls an operation of the table by key over app.inject. */
export async function call(app: FastifyInstance, key: EndpointKey, options: CallOptions = {}): Promise<CallResult> {
  const def = endpointDef(key);
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== null && options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  const response = await app.inject({
    method: def.method,
    url: urlFor(def, options),
    headers,
    ...(options.body !== undefined && { payload: options.body as object }),
  });
  return { http: response.statusCode, json: JSON.parse(response.body), raw: response.body };
}

/** Problems of a successful reply against the contract's reply schemas (empty when it fits). */
export function replyProblems(key: EndpointKey, json: unknown): string[] {
  const def = endpointDef(key);
  const problems: string[] = [];
  const envelope = Envelope.safeParse(json);
  if (!envelope.success) return [`envelope: ${envelope.error.message}`];
  const data = def.reply.data.safeParse(envelope.data.data);
  if (!data.success) problems.push(`data: ${data.error.message}`);
  if (def.reply.data1) {
    if (!('data1' in envelope.data)) problems.push('data1: missing');
    const data1 = def.reply.data1.safeParse(envelope.data.data1);
    if (!data1.success) problems.push(`data1: ${data1.error.message}`);
  } else if ('data1' in envelope.data) {
    problems.push('data1: present where the spec has none');
  }
  return problems;
}

let counter = 0;

export function userBody(overrides: Record<string, unknown> = {}) {
  counter++;
  return {
    firstname: 'Ada',
    lastname: 'Obi',
    email: `ada.${counter}@example.com`,
    password: 'correct horse battery staple',
    phone: '+2348012345678',
    gender: 'female',
    ...overrides,
  };
}

/**
 * A valid body for every operation that takes one, built from its fields' kinds (every field,
 * optional ones too; src/contract/fields.ts sampleValue), so a new operation needs no line here;
 * undefined for one without a body.
 * `orgId` fills an `org-id` field (business information must name the caller's organisation).
 */
export function sampleBody(key: EndpointKey, orgId: number): Record<string, unknown> | undefined {
  if (!carriesBody(key)) return undefined;
  const fields: readonly FieldDef[] = BODY_FIELDS[key];
  return Object.fromEntries(fields.map((field) => [field.name, sampleValue(field, { orgId, serial: ++counter })]));
}

/** A valid query (besides product-id) for every operation that needs one, from its description. */
export function sampleQuery(key: EndpointKey, email = 'ada@example.com'): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, param] of Object.entries(operation(key).query as QuerySpec)) {
    if (param.type === 'literal') query[name] = param.value;
    else if (param.type === 'email') query[name] = email;
    else if (param.example !== undefined) query[name] = param.example;
  }
  return query;
}

/** Makes a user (found through the list, as a client must) and a loan request for it. */
export async function seedLoanRequest(app: FastifyInstance, org: Org, overrides: { amount?: number } = {}) {
  const body = userBody();
  const created = await call(app, 'createUser', { key: org.api_key, body });
  if (created.json.status !== 'success') throw new Error(`createUser: ${created.raw}`);
  const userId = await findUserId(app, org, body.email);
  const lr = await call(app, 'createLoanRequest', {
    key: org.api_key,
    params: { user_id: userId },
    productId: org.product_id,
    body: { amount: overrides.amount ?? 50000, purpose: 'stock' },
  });
  if (lr.json.status !== 'success') throw new Error(`createLoanRequest: ${lr.raw}`);
  return { userId, email: body.email, loanRequestId: (lr.json.data as { id: number }).id };
}

/**
 * The moves that take a new loan request to a stage among `wanted`, the fewest first found by
 * walking the state table (src/contract/states.ts) from its first stage.
 */
export function movesTo(wanted: readonly Stage[]): string[] {
  const first = FIRST_STAGE;
  const paths = new Map<Stage, string[]>([[first, []]]);
  const queue: Stage[] = [first];
  for (let stage = queue.shift(); stage !== undefined; stage = queue.shift()) {
    const path = paths.get(stage) as string[];
    if (wanted.includes(stage)) return path;
    for (const move of TRANSITIONS) {
      if (!move.from.includes(stage) || paths.has(move.to)) continue;
      paths.set(move.to, [...path, move.operation]);
      queue.push(move.to);
    }
  }
  throw new Error(`the state table has no way to reach ${wanted.join(' or ')}`);
}

/**
 * A new loan request (and its borrower) in a stage operation `key` may start from: bank details
 * added (the supporting information submit needs), then the state table's moves to such a stage,
 * each sent with its sample body.
 */
export async function loanRequestReadyFor(app: FastifyInstance, org: Org, key: string) {
  const seeded = await seedLoanRequest(app, org);
  const target = { key: org.api_key, params: { id: seeded.loanRequestId }, productId: org.product_id };
  await call(app, 'addBankDetails', { ...target, body: sampleBody('addBankDetails', org.org_id) });
  // An operation that starts from nothing (creates a loan request) needs no move.
  const wanted = startStages(key);
  for (const move of wanted.length === 0 ? [] : movesTo(wanted)) {
    const moveKey = move as EndpointKey;
    const reply = await call(app, moveKey, {
      ...target,
      query: sampleQuery(moveKey),
      body: sampleBody(moveKey, org.org_id),
    });
    if (reply.json.status !== 'success') throw new Error(`${move}, to get ready for ${key}: ${reply.raw}`);
  }
  return seeded;
}

export async function findUserId(app: FastifyInstance, org: Org, email: string): Promise<number> {
  for (let page = 1; ; page++) {
    const list = await call(app, 'listUsers', { key: org.api_key, query: { pages: page } });
    const users = list.json.data as Array<{ id: number; email: string }>;
    const found = users.find((user) => user.email === email);
    if (found) return found.id;
    if (users.length === 0) throw new Error(`no user ${email}`);
  }
}

/** Every row of every table, to compare before and after. */
export function snapshot(dbPath: string): Record<string, unknown[]> {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as Array<{ name: string }>;
    return Object.fromEntries(
      tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()]),
    );
  } finally {
    db.close();
  }
}

export const ALL_ENDPOINTS = ENDPOINTS as readonly EndpointDef[];
