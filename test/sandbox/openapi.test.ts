/**
 * The OpenAPI document (src/sandbox/openapi.ts): every operation of the contract in it, served at
 * /openapi.json without a key, printed by `loanctl sandbox openapi`, and valid for `redocly lint`
 * (the real linter, spawned on the generated file). Prism's check of real traffic against it is in
 * test/e2e/openapi-prism.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { openApiDocument } from '../../src/sandbox/openapi.js';
import { VERSION } from '../../src/version.js';
import { ROOT } from '../helpers/cli.js';
import { runCli } from '../helpers/run-cli.js';
import { openSandbox, type TestSandbox } from '../helpers/sandbox.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked loosely in assertions; redocly checks its shape
type Json = Record<string, any>;

const SERVER = 'http://127.0.0.1:4010';
const doc = openApiDocument({ serverUrl: SERVER, version: VERSION }) as Json;
const openApiPath = (path: string) => path.replace(/:([a-z_]+)/g, '{$1}');

describe('the OpenAPI document', () => {
  it('has every operation of the contract, at each of its paths, with its parameters, body and replies', () => {
    for (const def of ENDPOINTS) {
      for (const path of [def.path, ...(def.otherPaths ?? [])]) {
        const op = doc.paths[openApiPath(path)]?.[def.method.toLowerCase()] as Json;
        expect(op, `${def.method} ${path}`).toBeDefined();
        const params = (op.parameters as Json[]).map((p) =>
          p.$ref ? (p.$ref as string).replace('#/components/parameters/', '') : p.name,
        );
        expect(params).toEqual([
          ...def.pathParams,
          ...(def.productId ? ['ProductId'] : []),
          ...Object.keys(def.query.shape),
          'Prefer',
        ]);
        expect(op.requestBody !== undefined, `${def.key} body`).toBe(def.body !== undefined);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '500']));
      }
    }
    expect(doc.paths['/api/v1/loan_request/{id}/tokenize_mono'].post.operationId).toBe('tokenizeLinker_tokenize_mono');
  });

  it("documents the sandbox's own parts: the Prefer header and the control plane under its own key", () => {
    expect(doc.components.parameters.Prefer).toMatchObject({ name: 'Prefer', in: 'header', required: false });
    for (const word of ['code=503', 'envelope=error', 'latency=2s', 'drop']) {
      expect(doc.components.parameters.Prefer.description).toContain(word);
    }
    const requests = doc.paths['/__sandbox/requests'].get;
    expect(requests.security).toEqual([{ controlKey: [] }]);
    expect(requests.parameters.map((p: Json) => p.name)).toEqual(['method', 'path', 'status', 'since', 'limit']);
    expect(doc.paths['/__sandbox/requests/flush'].post.security).toEqual([{ controlKey: [] }]);
    expect(doc.components.securitySchemes.controlKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it("lists each operation's own error replies (its contract row's errors) at their HTTP status, with the sandbox's message", () => {
    const own = ENDPOINTS.flatMap((def) =>
      Object.entries(def.errors ?? {}).map(([name, reply]) => ({ def, name, reply })),
    );
    expect(own.length).toBeGreaterThan(0);
    for (const { def, name, reply } of own) {
      const response = doc.paths[openApiPath(def.path)][def.method.toLowerCase()].responses[String(reply.http)];
      expect(response.description, `${def.key} ${name}`).toContain(reply.when.slice(1));
      expect(response.content['application/json'].examples[name].value).toEqual({
        status: reply.status,
        message: reply.message,
      });
    }
  });

  it('says what a body field and a query parameter must be, from the contract', () => {
    const createUser = doc.paths['/api/v1/user'].post;
    const body = createUser.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['firstname', 'lastname', 'email', 'password', 'phone', 'gender']);
    expect(body.properties.email).toMatchObject({ type: 'string', format: 'email' });
    const pages = doc.paths['/api/v1/user'].get.parameters.find((p: Json) => p.name === 'pages');
    expect(pages).toEqual({
      name: 'pages',
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    });
  });

  it('says which state each moving operation leads to, from the state table (src/contract/states.ts)', () => {
    expect(doc.paths['/api/v1/loan_request/{id}/submit'].put.description).toContain(
      'Moves a loan request from any stage to waiting for approval (status pending, user_status submitted); one with user_status submitted or submitted_at set is answered as it is.',
    );
    expect(doc.paths['/api/v1/loan_request/{id}/action'].post.description).toContain(
      'to approved (lender_status approved)',
    );
  });

  it('documents the envelope, its 200 failures (spec §7) and the Bearer scheme', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.schemas.Envelope.properties.status.enum).toEqual(['success', 'error', 'exists', 'no-access']);
    const submit = doc.paths['/api/v1/loan_request/{id}/submit'].put.responses['200'].content['application/json'];
    const [success, failure] = submit.schema.oneOf;
    expect(success.allOf[1].required).toEqual(['data', 'data1']);
    expect(failure.$ref).toBe('#/components/schemas/ErrorEnvelope');
    expect(failure.examples).toEqual([
      { status: 'error', message: 'Product ID is required' },
      {
        status: 'no-access',
        message: 'You do not have access to this loan request. Please verify the loan request id',
      },
    ]);
  });

  describe('redocly lint', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'loanctl-openapi-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** redocly's report on `document`: its problems, with the rule that found each. */
    async function lint(document: Json) {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const redocly = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [redocly, 'lint', file, '--format', 'json', '--max-problems', '50'],
        { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      ).catch((failure: { stdout?: string; stderr?: string }) => {
        // It exits 1 on an error; its report is still on stdout.
        if (failure.stdout?.startsWith('{')) return { stdout: failure.stdout };
        throw new Error(`redocly lint failed:\n${failure.stdout}\n${failure.stderr}`);
      });
      return JSON.parse(stdout) as { totals: { errors: number }; problems: { ruleId: string }[] };
    }
    const EXAMPLE_RULE = 'no-invalid-media-type-examples';

    it('finds no error in it, and no example that breaks its schema', async () => {
      const report = await lint(doc);
      expect(report.totals.errors, JSON.stringify(report.problems, null, 2)).toBe(0);
      // The recommended ruleset only warns of an example that breaks its schema: a warning here is a failure.
      expect(report.problems.filter((problem) => problem.ruleId === EXAMPLE_RULE)).toEqual([]);
    });

    it('does find a success example that breaks its schema (a date not in the format)', async () => {
      const broken = structuredClone(doc);
      broken.paths['/api/v1/user'].get.responses['200'].content['application/json'].example.data[0].created_at =
        '2026-3-2';
      const report = await lint(broken);
      expect(report.problems.map((problem) => problem.ruleId)).toContain(EXAMPLE_RULE);
    });
  });
});

describe('GET /openapi.json', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await openSandbox();
  });
  afterAll(() => sandbox?.close());

  it('serves the document without a key, naming the address the caller reached', async () => {
    const reply = await sandbox.app.inject({
      method: 'GET',
      url: '/openapi.json',
      headers: { host: 'sandbox.test:4321' },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.json()).toEqual({ ...doc, servers: [{ url: 'http://sandbox.test:4321' }] });
  });
});

describe('loanctl sandbox openapi', () => {
  it('prints the document as JSON, for the server given', async () => {
    const run = await runCli(['sandbox', 'openapi', '--server-url', 'http://127.0.0.1:5000/']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.json()).toEqual({ ...doc, servers: [{ url: 'http://127.0.0.1:5000' }] });
  });

  it('names the default sandbox address when no server is given, and prints one line with -o ndjson', async () => {
    const run = await runCli(['sandbox', 'openapi', '-o', 'ndjson']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.json<Json>().servers).toEqual([{ url: SERVER }]);
  });

  it('refuses a server that is not an http URL, and a table, in one line (exit 2)', async () => {
    const bad = await runCli(['sandbox', 'openapi', '--server-url', 'ftp://example.com']);
    expect([bad.exitCode, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toContain('--server-url must be an http or https URL');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const table = await runCli(['sandbox', 'openapi', '-o', 'table']);
    expect(table.exitCode).toBe(2);
    expect(table.stderr).toContain('sandbox openapi prints JSON');
  });
});
