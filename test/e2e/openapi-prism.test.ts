/**
 * An outside check of the OpenAPI document (src/sandbox/openapi.ts): Prism's validating proxy
 * (`prism proxy --errors`, @stoplight/prism-cli) stands in front of a running sandbox, with the
 * generated document, and the whole flow runs through it with real `loanctl` commands. Prism checks
 * every request and every reply against the document; it reports none it finds wrong. A request
 * that breaks the document is sent too, and Prism must refuse it: so this test can fail.
 *
 * Prism runs in its own process (it is a server), the sandbox and loanctl in this one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/sandbox/openapi.js';
import { VERSION } from '../../src/version.js';
import { borrower, ROOT } from '../helpers/cli.js';
import { closedPort } from '../helpers/ports.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

const PRISM = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');

let sandbox: CliSandbox;
let prism: ChildProcess;
let proxyUrl: string;
let dir: string;
/** Everything Prism printed. */
let log = '';

beforeAll(async () => {
  sandbox = await cliSandbox();
  dir = mkdtempSync(join(tmpdir(), 'loanctl-prism-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(openApiDocument({ serverUrl: sandbox.url, version: VERSION })));
  const port = await closedPort();
  proxyUrl = `http://127.0.0.1:${port}`;
  prism = spawn(
    process.execPath,
    [PRISM, 'proxy', file, sandbox.url, '--errors', '--host', '127.0.0.1', '--port', String(port)],
    { env: { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prism.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  prism.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  await listening(prism);
}, 120_000);

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((resolve) => prism.once('exit', resolve));
    prism.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (prism.exitCode === null) prism.kill('SIGKILL');
  }
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Resolves once Prism says it listens (it reads and checks the document first: seconds). */
function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (log.includes('Prism is listening')) {
        clearInterval(timer);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`prism exited (${child.exitCode}) before listening:\n${log}`));
      }
    }, 50);
  });
}

/** loanctl against the proxy (the sandbox's key and product, Prism's address); it must exit `exit`. */
async function loanctlExiting(exit: number, env: Record<string, string>, ...argv: string[]) {
  const run = await sandbox.run(argv, { env: { LOANCTL_BASE_URL: proxyUrl, ...env }, stdin: 's3cret\n' });
  expect(run.exitCode, `loanctl ${argv.join(' ')}\n${run.stderr}\nprism:\n${log}`).toBe(exit);
  return run;
}

const loanctl = (...argv: string[]) => loanctlExiting(0, {}, ...argv);

/** Prism's lines about what it found wrong, and how many requests it passed on to the sandbox. */
function verdict() {
  const lines = log.split('\n');
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
    expect(problems, log).toEqual([]);
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
    expect(verdict().problems, log).toEqual([]);
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
