/**
 * Scripting loanctl: --quiet, errors as JSON under -o json|ndjson, -o in any
 * case, --raw with --fields refused, `help loan approve`, and tables that fit the terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borrower } from '../helpers/cli.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
const email = 'ada.script@example.com';

beforeAll(async () => {
  sandbox = await cliSandbox();
  const created = await sandbox.run(['user', 'create', ...borrower(email), '--password-stdin'], { stdin: 'pw' });
  expect(created.exitCode, created.stderr).toBe(0);
});
afterAll(() => sandbox.close());

const lastJsonLine = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1) as string);

describe('--quiet', () => {
  it('drops notices and hints: stderr stays empty, the data is on stdout', async () => {
    const create = ['loan', 'create', '--user', email, '--amount', '5000', '--purpose', 'Stock', '-o', 'json'];
    const loud = await sandbox.run(create);
    expect(loud.stderr).toContain('is user');
    const quiet = await sandbox.run([...create, '--quiet']);
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.json<{ amount: number }>().amount).toBe(5000);
  });

  it('never drops an error', async () => {
    const result = await sandbox.run(['--quiet', 'loan', 'show', '999999']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/^loanctl: .+\n$/);
  });
});

describe('errors under -o json|ndjson', () => {
  it('an API error is also one JSON object on stderr', async () => {
    const result = await sandbox.run(['loan', 'show', '999999', '-o', 'json']);
    expect(result.exitCode).toBe(4);
    const [line] = result.stderr.split('\n');
    expect(lastJsonLine(result.stderr)).toEqual({
      error: { code: 'no-access', exit: 4, message: (line as string).replace(/^loanctl: /, '') },
    });
  });

  it('a usage error too, even before the options are read', async () => {
    const result = await sandbox.run(['-o', 'ndjson', 'loan', 'no-such-verb', '7']);
    expect(result.exitCode).toBe(2);
    expect(lastJsonLine(result.stderr)).toEqual({
      error: { code: 'usage', exit: 2, message: "Unknown command 'no-such-verb'." },
    });
  });

  it('under -o table there is no JSON', async () => {
    const result = await sandbox.run(['loan', 'show', '999999', '-o', 'table']);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});

describe('flags a script writes', () => {
  it('-o JSON is -o json', async () => {
    const result = await sandbox.run(['user', 'exists', '--email', email, '-o', 'JSON']);
    expect(result.exitCode).toBe(0);
    expect(result.json()).toBe(true);
  });

  it('--raw with --fields is refused (exit 2), not ignored', async () => {
    const result = await sandbox.run(['user', 'list', '--raw', '--fields', 'id']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'loanctl: --raw prints the whole envelope as received, so --fields cannot pick from it. Leave out --raw, or --fields.\n',
    );
  });

  it('`loanctl help loan approve` shows the help of loan approve', async () => {
    const result = await sandbox.run(['help', 'loan', 'approve']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: loanctl loan approve /);
  });
});

describe('tables on a terminal', () => {
  it('fit its width: a long purpose is cut short, never a broken table', async () => {
    const purpose = 'Stock for the shop, '.repeat(10).trim();
    await sandbox.run(['loan', 'create', '--user', email, '--amount', '7000', '--purpose', purpose, '-o', 'json']);
    const result = await sandbox.run(['loan', 'list', '--limit', '3', '-o', 'table'], {
      tty: true,
      onIo: (io) => Object.assign(io.stdout, { columns: 80 }),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.length).toBe(4); // the header and one line per loan request
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(result.stdout).toContain('…');
  });

  it('wrap a long value of one record onto the next lines', async () => {
    const purpose = 'Stock for the shop, '.repeat(10).trim();
    const created = await sandbox.run([
      'loan',
      'create',
      '--user',
      email,
      '--amount',
      '7000',
      '--purpose',
      purpose,
      '-o',
      'json',
    ]);
    const id = created.json<{ id: number }>().id;
    const result = await sandbox.run(['loan', 'show', String(id), '-o', 'table'], {
      tty: true,
      onIo: (io) => Object.assign(io.stdout, { columns: 60 }),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    for (const line of result.stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(60);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain(purpose);
  });
});
