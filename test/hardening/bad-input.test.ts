/**
 * Property tests (fast-check) of the sandbox under random and malformed input: for every operation of the contract table (a loop over ENDPOINTS, so a new operation is
 * covered), random and malformed bodies, query strings, path ids, product ids and keys, sent with
 * `app.inject`. Whatever arrives:
 * - never a 5xx, except the two the spec documents (tokenize without bank details; a second
 *   employment entry), and never an unexpected error reported by the app;
 * - every reply is the envelope (status, message[, data[, data1]]) and nothing else;
 * - a request that is not answered with success leaves the database exactly as it was (a hash
 *   of every row of every table).
 * Runs are bounded and seeded, so a failure replays the same way.
 */
import { createHash } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EndpointDef, EndpointKey } from '../../src/contract/endpoints.js';
import { OPERATIONS, type OperationDef } from '../../src/contract/operations.js';
import { Envelope } from '../../src/contract/schemas.js';
import { startStages, stateRow } from '../../src/contract/states.js';
import { createOrganisation, createProduct } from '../../src/sandbox/admin.js';
import { buildSandbox } from '../../src/sandbox/app.js';
import { dbPathFor } from '../../src/sandbox/db.js';
import { ALL_ENDPOINTS, call, movesTo, sampleBody, sampleQuery, seedLoanRequest } from '../helpers/sandbox.js';
import { removeTemps, temp } from './helpers.js';

const RUNS = 120;
const SEED = 20_260_302;

/** The two 500s the spec documents (spec 4.8 and 4.17). */
/** The 500 replies an operation documents in its contract row (`errors`). */
function documented500(def: EndpointDef): string[] {
  return Object.values(def.errors ?? {})
    .filter((reply) => reply.http === 500)
    .map((reply) => reply.message);
}

let app: FastifyInstance;
let reader: DatabaseSync;
const unexpected: unknown[] = [];
let org: { org_id: number; api_key: string; product_id: number };
let other: { org_id: number; api_key: string; product_id: number };
/** Ids that exist (so random requests sometimes reach a real record), as strings. */
let realIds: string[] = [];
let ours: Awaited<ReturnType<typeof seedLoanRequest>> | undefined;
let theirs: Awaited<ReturnType<typeof seedLoanRequest>> | undefined;

beforeAll(async () => {
  const dataDir = temp('loanctl-bad-input-');
  const make = (name: string) => {
    const created = createOrganisation(dataDir, name);
    return { ...created, product_id: createProduct(dataDir, created.org_id, `${name} Loan`).product_id };
  };
  org = make('First Lender');
  other = make('Second Lender');
  app = await buildSandbox({ dbPath: dbPathFor(dataDir), onError: (error) => unexpected.push(error) });
  reader = new DatabaseSync(dbPathFor(dataDir), { readOnly: true });
});

/**
 * Fresh records for each operation (an earlier operation's random requests may have deleted or
 * changed the last ones): a loan request with every attachment, in a stage the operation may start
 * from, one with none (tokenize: the documented 500), and another organisation's.
 */
async function seed(key: string): Promise<void> {
  // One borrower per organisation (creating users hashes passwords: slow), new loan requests each time.
  ours ??= await seedLoanRequest(app, org);
  theirs ??= await seedLoanRequest(app, other);
  const loanFor = async (owner: typeof org, userId: number) => {
    const reply = await call(app, 'createLoanRequest', {
      key: owner.api_key,
      params: { user_id: userId },
      productId: owner.product_id,
      body: sampleBody('createLoanRequest', owner.org_id),
    });
    return (reply.json.data as { id: number }).id;
  };
  const full = await loanFor(org, ours.userId);
  const bare = await loanFor(org, ours.userId);
  for (const key of ATTACHING) {
    const reply = await call(app, key, {
      key: org.api_key,
      params: { id: full },
      productId: org.product_id,
      body: sampleBody(key, org.org_id),
    });
    expect(reply.json.status).toBe('success');
  }
  // The full one is brought to a stage the operation may start from, by the state table's moves.
  const wanted = startStages(key);
  for (const move of wanted.length === 0 ? [] : movesTo(wanted)) {
    const moveKey = move as EndpointKey;
    const on = { key: org.api_key, params: { id: full }, productId: org.product_id };
    const reply = await call(app, moveKey, {
      ...on,
      query: sampleQuery(moveKey),
      body: sampleBody(moveKey, org.org_id),
    });
    expect(reply.json.status, `${move} before ${key}`).toBe('success');
  }
  realIds = [full, bare, ours.userId, await loanFor(other, theirs.userId), theirs.userId].map(String);
}

/**
 * The operations that attach something to a loan request: a POST with a body to one, that moves
 * it to no other stage (the contract and the state table say which).
 */
const ATTACHING = (OPERATIONS as readonly OperationDef[])
  .filter((row) => row.method === 'POST' && row.body !== undefined && row.pathParams.includes('id'))
  .filter((row) => stateRow(row.key)?.to === undefined)
  .map((row) => row.key as EndpointKey);

afterAll(async () => {
  reader?.close();
  await app?.close();
  removeTemps();
});

/** A hash of every row of every table (what "the database is unchanged" means). */
function dbHash(): string {
  const hash = createHash('sha256');
  const tables = reader
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as Array<{ name: string }>;
  for (const { name } of tables) {
    hash.update(name);
    for (const row of reader.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()) {
      hash.update(JSON.stringify(row, (_k, value) => (value instanceof Uint8Array ? [...value] : value)));
    }
  }
  return hash.digest('hex');
}

let known = { version: -1, hash: '' };

/**
 * The database's state: a hash of every row, recomputed only when a commit happened since the last
 * look (PRAGMA data_version changes when another connection commits), so thousands of requests
 * stay cheap and the comparison is still of content.
 */
function state(): { version: number; hash: string } {
  const version = (reader.prepare('PRAGMA data_version').get() as { data_version: number }).data_version;
  if (version !== known.version) known = { version, hash: dbHash() };
  return known;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

const nasty = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '9007199254740993',
  '99999999999999999999999',
  'NaN',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  "1' OR '1'='1",
  '1; DROP TABLE users;--',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\u202e',
  '👩🏾‍💻',
  'x'.repeat(3000),
);
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), nasty);
/** A path id or product id: mostly rubbish, sometimes a real id (ours or another organisation's). */
const idText = () =>
  fc.oneof(
    { weight: 2, arbitrary: text },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 3, arbitrary: fc.constantFrom(...realIds) },
  );

const json = fc.jsonValue({ maxDepth: 3 });

/** A body: anything JSON, the sample with a field broken or added, or bytes that are not JSON. */
function bodyArb(def: EndpointDef) {
  const sample = (sampleBody(def.key as EndpointKey, org.org_id) ?? {}) as Record<string, unknown>;
  const fields = Object.keys(sample);
  const broken = fields.length
    ? fc
        .record({ field: fc.constantFrom(...fields), value: fc.oneof(json, text) })
        .map(({ field, value }) => ({ kind: 'json' as const, value: { ...sample, [field]: value } }))
    : fc.constant({ kind: 'json' as const, value: {} });
  const missing = fields.length
    ? fc.subarray(fields, { minLength: 1 }).map((drop) => ({
        kind: 'json' as const,
        value: Object.fromEntries(Object.entries(sample).filter(([k]) => !drop.includes(k))),
      }))
    : fc.constant({ kind: 'json' as const, value: [] });
  const extra = fc
    .dictionary(text, json, { maxKeys: 3 })
    .map((more) => ({ kind: 'json' as const, value: { ...more, ...sample, __proto__: more } }));
  return fc.oneof(
    fc.constant({ kind: 'json' as const, value: sample as unknown }),
    json.map((value) => ({ kind: 'json' as const, value })),
    broken,
    missing,
    extra,
    fc.constant({ kind: 'none' as const, value: undefined }),
    fc.oneof(fc.string(), fc.constantFrom('{', '{"a":', '[1,2', '{"amount": 1e999}', 'nul', '\u0000')).map((raw) => ({
      kind: 'raw' as const,
      value: raw,
    })),
    text.map((raw) => ({ kind: 'text/plain' as const, value: raw })),
  );
}

/** Query parameters: random names and values, the operation's own names with rubbish, repeats. */
function queryArb(def: EndpointDef) {
  const known = [...Object.keys(def.query.shape), 'product-id', 'cursor', 'limit', 'direction', 'pages', 'email'];
  const name = fc.oneof(fc.constantFrom(...known), text);
  return fc.array(fc.tuple(name, fc.oneof(text, idText(), fc.constantFrom('ASC', 'DESC', 'exists', 'approve'))), {
    maxLength: 5,
  });
}

const keyArb = () =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(org.api_key) },
    { weight: 1, arbitrary: fc.constant(other.api_key) },
    { weight: 1, arbitrary: fc.constantFrom(null, '', 'Bearer', `${org.api_key}x`, 'sk_sandbox_nope') },
    { weight: 1, arbitrary: text },
  );

function requestArb(def: EndpointDef) {
  return fc.record({
    key: keyArb(),
    ids: fc.record(Object.fromEntries(def.pathParams.map((param) => [param, idText()]))),
    productId: fc.option(
      fc.oneof({ weight: 3, arbitrary: fc.constant(String(org.product_id)) }, { weight: 1, arbitrary: idText() }),
      { nil: undefined, freq: 6 },
    ),
    validQuery: fc.boolean(),
    query: queryArb(def),
    body: bodyArb(def),
  });
}

type Request = fc.Arbitrary<ReturnType<typeof requestArb> extends fc.Arbitrary<infer T> ? T : never>;

async function send(def: EndpointDef, request: Request extends fc.Arbitrary<infer T> ? T : never) {
  let path = def.path;
  for (const param of def.pathParams) {
    path = path.replace(`:${param}`, encodeURIComponent(String((request.ids as Record<string, string>)[param])));
  }
  const search = new URLSearchParams();
  if (request.productId !== undefined) search.append('product-id', request.productId);
  if (request.validQuery) {
    for (const [name, value] of Object.entries(sampleQuery(def.key as EndpointKey))) search.append(name, value);
  }
  for (const [name, value] of request.query) search.append(name, value);
  const headers: Record<string, string> = {};
  if (request.key !== null) headers.authorization = `Bearer ${request.key}`;
  let payload: string | undefined;
  if (request.body.kind === 'json') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(request.body.value);
  } else if (request.body.kind === 'raw') {
    headers['content-type'] = 'application/json';
    payload = request.body.value;
  } else if (request.body.kind === 'text/plain') {
    headers['content-type'] = 'text/plain';
    payload = request.body.value;
  }
  const qs = search.toString();
  return app.inject({ method: def.method, url: `${path}${qs ? `?${qs}` : ''}`, headers, payload });
}

function expectEnvelope(body: string): Envelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error(`not JSON: ${body.slice(0, 200)}`);
  }
  const envelope = Envelope.safeParse(parsed);
  if (!envelope.success) throw new Error(`not the envelope: ${body.slice(0, 200)}`);
  const keys = Object.keys(parsed as object).sort();
  // An error carries only status and message, as the real service's examples do.
  const allowed =
    envelope.data.status === 'error' || envelope.data.status === 'no-access'
      ? ['message,status']
      : ['data,message,status', 'data,data1,message,status'];
  expect(allowed).toContain(keys.join(','));
  return envelope.data;
}

describe.each(ALL_ENDPOINTS.map((def) => [def.key, def] as const))('%s', (_key, def) => {
  beforeEach(() => seed(def.key));

  it('random and malformed input: no undocumented 5xx, always the envelope, nothing changed unless success', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(requestArb(def), async (request) => {
        const before = state().hash;
        const response = await send(def, request);
        const envelope = expectEnvelope(response.body);
        seen.add(`${response.statusCode} ${envelope.status}`);
        if (response.statusCode >= 500) {
          expect(documented500(def), `HTTP ${response.statusCode}: ${response.body}`).toContain(envelope.message);
        }
        expect(unexpected).toEqual([]);
        if (envelope.status !== 'success') expect(state().hash).toBe(before);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The generator reached past authentication: keys refused, input refused, and more.
    expect(seen).toContain('401 error');
    expect(seen.size, [...seen].join(', ')).toBeGreaterThanOrEqual(3);
    if (def.body || def.pathParams.length > 0) expect(seen).toContain('200 success');
    if (documented500(def).length > 0) expect(seen).toContain('500 error');
  });
});

describe('outside the contract table', () => {
  it('any method and path answers the envelope, never a 5xx, and changes nothing', async () => {
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');
    const segment = fc.oneof(
      text.map(encodeURIComponent),
      fc.constantFrom('api', 'v1', 'user', 'loan_request', ':id', '..', '%2e%2e', '1', 'progress'),
      // Sent as they are: broken percent-encoding the router cannot decode.
      fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', '%00', '%FF'),
    );
    await fc.assert(
      fc.asyncProperty(method, fc.array(segment, { maxLength: 5 }), async (verb, parts) => {
        const before = state().hash;
        const response = await app.inject({
          method: verb as 'GET',
          url: `/${parts.join('/')}`,
          headers: { authorization: `Bearer ${org.api_key}` },
        });
        expect(response.statusCode).toBeLessThan(500);
        if (verb !== 'HEAD') expectEnvelope(response.body);
        expect(unexpected).toEqual([]);
        expect(state().hash).toBe(before);
      }),
      { numRuns: RUNS, seed: SEED, examples: [['GET', ['api', 'v1', 'loan_request', '%E0%A4%A', 'progress']]] },
    );
  });

  it('a body over the 1 MiB limit is 413 with the envelope, and nothing is stored', async () => {
    const before = dbHash();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/user',
      headers: { authorization: `Bearer ${org.api_key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ ...(sampleBody('createUser', 0) as object), firstname: 'x'.repeat(1_100_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(expectEnvelope(response.body).status).toBe('error');
    expect(dbHash()).toBe(before);
  });
});
