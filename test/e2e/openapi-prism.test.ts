/**
 * An outside check of the OpenAPI document (src/sandbox/openapi.ts): Prism's validating proxy
 * (`prism proxy --errors`, @stoplight/prism-cli) stands in front of a running sandbox, with the
 * generated document, and the whole flow runs through it with real `loanctl` commands. Prism checks
 * every request and every reply against the document; it reports none it finds wrong. A request
 * that breaks the document is sent too, and Prism must refuse it: so this test can fail.
 *
 * Prism's mock (`prism mock`), fed the same document, must answer with its success examples (the
 * sandbox's own replies, src/sandbox/openapi-examples.ts) and find no violation in them.
 *
 * Prism runs in its own process (it is a server), the sandbox and loanctl in this one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/sandbox/openapi.js';
import { SUCCESS_EXAMPLES } from '../../src/sandbox/openapi-examples.js';
import { VERSION } from '../../src/version.js';
import { borrower, ROOT } from '../helpers/cli.js';
import { closedPort } from '../helpers/ports.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

const PRISM = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');

let sandbox: CliSandbox;
/** Prism's validating proxy in front of the sandbox. */
let prism: Prism;
let proxyUrl: string;
let dir: string;
/** Everything the proxy printed. */
const log = () => prism.log();

interface Prism {
  url: string;
  /** Everything it printed so far. */
  log(): string;
  stop(): Promise<void>;
}

/** Prism (`mock FILE` or `proxy FILE URL`) on a free port; resolves once it says it listens (it reads and checks the document first: seconds). */
async function startPrism(args: string[]): Promise<Prism> {
  const port = await closedPort();
  const child = spawn(process.execPath, [PRISM, ...args, '--host', '127.0.0.1', '--port', String(port)], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk) => {
    printed += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    printed += chunk;
  });
  const started: Prism = { url: `http://127.0.0.1:${port}`, log: () => printed, stop: () => stopped(child) };
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (printed.includes('Prism is listening')) {
        clearInterval(timer);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`prism exited (${child.exitCode}) before listening:\n${printed}`));
      }
    }, 50);
  });
  return started;
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** The document, for the sandbox's address, in a file Prism can read. */
let documentFile: string;

beforeAll(async () => {
  sandbox = await cliSandbox();
  dir = mkdtempSync(join(tmpdir(), 'loanctl-prism-'));
  documentFile = join(dir, 'openapi.json');
  writeFileSync(documentFile, JSON.stringify(openApiDocument({ serverUrl: sandbox.url, version: VERSION })));
  prism = await startPrism(['proxy', documentFile, sandbox.url, '--errors']);
  proxyUrl = prism.url;
}, 120_000);

afterAll(async () => {
  await prism?.stop();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** loanctl against the proxy (the sandbox's key and product, Prism's address); it must exit `exit`. */
async function loanctlExiting(exit: number, env: Record<string, string>, ...argv: string[]) {
  const run = await sandbox.run(argv, { env: { LOANCTL_BASE_URL: proxyUrl, ...env }, stdin: 's3cret\n' });
  expect(run.exitCode, `loanctl ${argv.join(' ')}\n${run.stderr}\nprism:\n${log()}`).toBe(exit);
  return run;
}

const loanctl = (...argv: string[]) => loanctlExiting(0, {}, ...argv);

/** Prism's lines about what it found wrong, and how many requests it passed on to the sandbox. */
function verdict(printed = log()) {
  const lines = printed.split('\n');
  return {
    problems: lines.filter((line) => /Violation|Request terminated with error/.test(line)),
    forwarded: lines.filter((line) => line.includes('Forwarding')).length,
  };
}

describe('the e2e flow through Prism’s validating proxy', () => {
  it('breaks no rule of the document, in any request or reply', async () => {
    const email = 'ada.prism@example.com';
    await loanctl('user', 'create', ...borrower(email), '--password-stdin');
    const loan = (
      await loanctl('loan', 'create', '--user', email, '--amount', '50000', '--purpose', 'Shop stock')
    ).json<{ id: number }>();
    const id = String(loan.id);
    await loanctl(
      'loan',
      'add-bank',
      id,
      '--code',
      '058',
      '--account-name',
      'Ada Obi',
      '--account-number',
      '0123456789',
    );
    await loanctl(
      ...['loan', 'add-employment', id, '--status', 'employed', '--company-name', 'Acme Stores'],
      ...['--company-address', '1 Marina, Lagos', '--position', 'Cashier', '--salary', '150000'],
      ...['--manager', 'Bola Ade', '--manager-phone', '08098765432', '--manager-email', 'bola@acme.ng'],
    );
    await loanctl(
      ...['loan', 'add-guarantor', id, '--firstname', 'Chi', '--lastname', 'Eze', '--gender', 'male'],
      ...['--relationship', 'brother', '--email', 'chi@example.com', '--phone', '2348055555555'],
    );
    await loanctl(
      ...['loan', 'upload-document', id, '--type', 'passport', '--title', 'International passport'],
      ...['--number', 'A01234567', '--url', 'https://files.example.com/ada-passport.jpg'],
    );
    await loanctl(
      ...['loan', 'add-business', id, '--org-id', String(sandbox.org_id), '--name', 'Ada Stores'],
      ...['--role', 'owner', '--industry', 'retail', '--description', 'Grocery shop', '--registered'],
      ...['--established-on', '2019-03-01', '--number-of-employees', '4', '--physical-location', 'yes'],
    );
    await loanctl('loan', 'submit', id);
    await loanctl(
      ...['loan', 'approve', id, '--approved-amount', '45000', '--rate', '5', '--tenure', '6'],
      ...['--tenured-in', 'months', '--rate-type', 'simple-interest', '--frequency', 'weekly', '--yes'],
    );
    const shown = await loanctl('loan', 'show', id);
    expect(shown.json()).toMatchObject({ loan_request: { id: loan.id, lender_status: 'approved' } });
    const listed = await loanctl('loan', 'list');
    expect(listed.json<{ id: number }[]>().map((item) => item.id)).toContain(loan.id);
    await loanctl('user', 'list');
    // A user that is there already: the `exists` reply.
    await loanctl('user', 'create', ...borrower(email), '--password-stdin');

    const { problems, forwarded } = verdict();
    expect(problems, log()).toEqual([]);
    // Every command went through Prism to the sandbox (show alone makes five requests).
    expect(forwarded).toBeGreaterThanOrEqual(18);
  }, 120_000);

  it("lets the failures of spec §7 and the sandbox's error replies through as documented", async () => {
    const email = 'bola.prism@example.com';
    await loanctl('user', 'create', ...borrower(email), '--password-stdin');
    const loan = (await loanctl('loan', 'create', '--user', email, '--amount', '900', '--purpose', 'Stock')).json<{
      id: number;
    }>();
    const id = String(loan.id);
    const employment = [
      ...['loan', 'add-employment', id, '--status', 'employed', '--company-name', 'Acme', '--company-address', 'Lagos'],
      ...['--position', 'Clerk', '--salary', '1000', '--manager', 'Bola', '--manager-phone', '08098765432'],
      ...['--manager-email', 'bola@acme.ng'],
    ];
    await loanctl(...employment);
    await loanctlExiting(1, {}, ...employment); // 500: employment information already exists
    await loanctlExiting(4, {}, 'loan', 'progress', '999999'); // 200 no-access: not your loan request
    const other = sandbox.addOrg('Other Lender');
    await loanctlExiting(4, { LOANCTL_PRODUCT_ID: String(other.product_id) }, 'loan', 'list'); // 200 no-access: product
    await loanctlExiting(3, { LOANCTL_API_KEY: 'sk_sandbox_not_a_key' }, 'user', 'list'); // 401: unknown key
    const auth = { authorization: `Bearer ${sandbox.api_key}` };
    const sent = [
      // 400: the direction is missing (spec §7); 400: a date the pattern allows but the calendar does not.
      await fetch(`${proxyUrl}/api/v1/loan_request?product-id=${sandbox.product_id}`, { headers: auth }),
      await fetch(`${proxyUrl}/api/v1/user?start=2026-02-30`, { headers: auth }),
    ];
    expect(sent.map((reply) => reply.status)).toEqual([400, 400]);
    const bodies = await Promise.all(sent.map((reply) => reply.json() as Promise<{ status: string }>));
    expect(bodies.map((body) => body.status)).toEqual(['error', 'error']);
    expect(verdict().problems, log()).toEqual([]);
  }, 120_000);

  it('refuses a request the document does not allow, so a broken flow would be seen', async () => {
    const before = verdict().problems.length;
    const reply = await fetch(`${proxyUrl}/api/v1/user`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ firstname: 'Ada', email: 'not an e-mail' }),
    });
    const problem = (await reply.json()) as { type: string; validation: { message: string }[] };
    expect(reply.status).toBe(422);
    expect(problem.type).toMatch(/stoplight\.io\/prism\/errors/);
    expect(problem.validation.map((v) => v.message).join('\n')).toMatch(/lastname/);
    await expect.poll(() => verdict().problems.length).toBeGreaterThan(before);
  });
});

describe('Prism’s mock, fed the document', () => {
  let mock: Prism;
  beforeAll(async () => {
    mock = await startPrism(['mock', documentFile]);
  }, 120_000);
  afterAll(() => mock?.stop());

  it("answers a list and a create with the document's examples, the sandbox's own replies, and finds no violation in them", async () => {
    const auth = { authorization: `Bearer ${sandbox.api_key}` };
    const list = await fetch(`${mock.url}/api/v1/loan_request?product-id=${sandbox.product_id}&direction=ASC`, {
      headers: auth,
    });
    const created = await fetch(`${mock.url}/api/v1/user`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...{ firstname: 'Ada', lastname: 'Obi', email: 'ada.mock@example.com', password: 'correct horse battery' },
        ...{ phone: '+2348012345678', gender: 'female' },
      }),
    });
    expect([list.status, created.status]).toEqual([200, 200]);
    expect(await list.json()).toEqual(SUCCESS_EXAMPLES.listLoanRequests);
    expect(await created.json()).toEqual(SUCCESS_EXAMPLES.createUser);
    // Prism logs a reply's violations after answering it: a third request in its log shows the first two's are all there.
    await fetch(`${mock.url}/api/v1/user`, { headers: auth });
    const lines = () => mock.log().split('\n');
    const received = () => lines().filter((line) => line.includes('Request received'));
    await expect.poll(() => received().length, { timeout: 30_000 }).toBe(3);
    const beforeThird = lines().slice(
      0,
      lines().findLastIndex((line) => line.includes('Request received')),
    );
    expect(beforeThird.filter((line) => line.includes('Responding with "200"'))).toHaveLength(2);
    expect(verdict(beforeThird.join('\n')).problems, mock.log()).toEqual([]);
  }, 60_000);
});
