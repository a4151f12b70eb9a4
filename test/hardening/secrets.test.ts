/**
 * Secrets and access:
 * - the API key never appears in stdout or stderr of any command: every verb of the CLI, with
 *   successes and failures, `--debug`, `--dry-run`, `--raw` and every output format, run through
 *   the real binary against a real sandbox with a known key — and with a second, wrong key — and
 *   every output grepped for the key and for every 7-character piece of its secret part;
 * - the config file is written 0600, and a looser one is tightened with a warning;
 * - a plain http:// base URL that is not loopback is refused, saying why, from a flag, the
 *   environment or a profile.
 * (Isolation between organisations — every operation, generated from ENDPOINTS — is
 * test/sandbox/isolation.test.ts.)
 *
 * Left out of the grep, by design: `sandbox start` and `sandbox org create`, whose job is to
 * print a new organisation's key once.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../src/basics.js';
import { type CliSandbox, cliSandbox, envWith, runCli } from '../helpers/run-cli.js';
import { removeTemps, temp } from './helpers.js';

/** A key the API rejects, as distinctive as the real one. */
const WRONG_KEY = 'sk_live_WRONGCANARY_5f3e1a9c7b2d4e6f';

let sandbox: CliSandbox;
let key: string;
let env: Env;
/** Every output of every command run, labelled. */
const outputs: Array<{ args: string[]; code: number; text: string }> = [];

beforeAll(async () => {
  sandbox = await cliSandbox();
  key = sandbox.api_key;
  env = sandbox.env;
});
afterAll(async () => {
  await sandbox?.close();
  removeTemps();
});

async function run(args: string[], options: { env?: Record<string, string | undefined>; input?: string } = {}) {
  const result = await runCli(args, { env: envWith(env, options.env), stdin: options.input ?? '' });
  outputs.push({ args, code: result.exitCode, text: `${result.stdout}\n${result.stderr}` });
  return result;
}

/** The key, and every 7-character piece of its secret part (after the public `sk_…_` prefix). */
function fragments(secret: string): string[] {
  const prefix = /^[A-Za-z]+_(?:[A-Za-z]+_)?/.exec(secret)?.[0] ?? '';
  const body = secret.slice(prefix.length);
  const pieces = [secret];
  for (let i = 0; i + 7 <= body.length; i++) pieces.push(body.slice(i, i + 7));
  return pieces;
}

function leaks(secret: string): string[] {
  const pieces = fragments(secret);
  return outputs.flatMap(({ args, text }) =>
    pieces.filter((piece) => text.includes(piece)).map((piece) => `${args.join(' ')}: shows "${piece}"`),
  );
}

const bank = ['--code', '058', '--account-name', 'Ada Obi', '--account-number', '0123456789', '--bank-name', 'GTB'];
const employment = [
  ...['--status', 'employed', '--company-name', 'Acme', '--company-address', 'Lagos', '--position', 'Clerk'],
  ...['--salary', '1000', '--manager', 'M', '--manager-phone', '08000000000', '--manager-email', 'm@acme.ng'],
];
const guarantor = [
  ...['--firstname', 'Chi', '--lastname', 'Eze', '--gender', 'male', '--relationship', 'brother'],
  ...['--email', 'chi@example.com', '--phone', '08055555555'],
];
const approve = [
  ...['--approved-amount', '4000', '--rate', '5', '--tenure', '3', '--tenured-in', 'months'],
  ...['--rate-type', 'simple-interest', '--frequency', 'monthly', '--yes'],
];
/** `['--a', '1', '--b', '2']` → `[['a', '1'], ['b', '2']]`. */
const chunk = (flags: string[]) =>
  flags.flatMap((flag, i) => (i % 2 === 0 ? [[flag.replace(/^--/, ''), flags[i + 1] as string] as const] : []));
const borrower = (email: string) => [
  ...['--firstname', 'Ada', '--lastname', 'Obi', '--email', email, '--phone', '08012345678', '--gender', 'female'],
];

describe('the API key never shows', () => {
  it('(the grep itself finds a 7-character piece of the key, and the key is long enough to have many)', () => {
    expect(fragments(key).length).toBeGreaterThan(20);
    outputs.push({ args: ['self-check'], code: 0, text: `Bearer …${key.slice(-8, -1)}…` });
    expect(leaks(key)).toHaveLength(1);
    outputs.pop();
  });

  it('in any output of any command: successes, failures, --debug, --dry-run, --raw, every format', async () => {
    const email = 'secret.flow@example.com';
    expect(
      (await run(['user', 'create', ...borrower(email), '--password-stdin', '--debug'], { input: 'pw' })).exitCode,
    ).toBe(0);
    const created = await run(['loan', 'create', '--user', email, '--amount', '5000', '--purpose', 'Stock', '--debug']);
    expect(created.exitCode, created.stderr).toBe(0);
    const id = String((JSON.parse(created.stdout) as { id: number }).id);
    const bare = JSON.parse(
      (await run(['loan', 'create', '--user', email, '--amount', '100', '--purpose', 'Bare'])).stdout,
    ) as { id: number };

    // Bulk runs (--from): their result lines and summaries too.
    const files = temp('loanctl-secrets-bulk-');
    const users = join(files, 'users.ndjson');
    const person = (n: number) => ({ ...Object.fromEntries(chunk(borrower(`bulk${n}@example.com`))), password: 'pw' });
    writeFileSync(users, `${JSON.stringify(person(1))}\n${JSON.stringify(person(2))}\n{"email":"not-an-email"}\n`);
    const loans = join(files, 'loans.csv');
    writeFileSync(loans, `user,amount,purpose\n${email},100,Bulk one\n${email},200,Bulk two\nghost@example.com,5,x\n`);

    // Independent of each other: run four at a time.
    const independent: Array<[string[], number]> = [
      [['user', 'create', '--from', users, '--debug'], 1], // a bad row: exit 1
      [['user', 'create', '--from', users, '--dry-run'], 1],
      [['loan', 'create', '--from', loans, '-o', 'csv', '--debug'], 1], // an unknown borrower
      // user
      [['user', 'create', ...borrower(email), '--password-stdin', '--raw'], 0], // exists
      [['user', 'exists', '--email', email, '--debug'], 0],
      [['user', 'list', '--all', '-o', 'csv', '--debug'], 0],
      [['user', 'list', '-o', 'table'], 0],
      // loan: every verb, in several formats, with --debug
      [['loan', 'list', '--debug', '-o', 'ndjson'], 0],
      [['loan', 'show', id, '--debug', '-o', 'table'], 0],
      [['loan', 'update', id, '--purpose', 'New stock', '--debug'], 0],
      [['loan', 'progress', id, '--raw'], 0],
      [['loan', 'banks', id, '-o', 'csv'], 0],
      [
        [
          'loan',
          'upload-document',
          id,
          '--type',
          'passport',
          '--title',
          'P',
          '--number',
          'A1',
          '--url',
          'https://f.example/p.jpg',
        ],
        0,
      ],
      [
        [
          'loan',
          'add-business',
          id,
          '--name',
          'N',
          '--role',
          'owner',
          '--industry',
          'retail',
          '--description',
          'd',
          '--registered',
          '--debug',
        ],
        0,
      ],
      [['loan', 'add-guarantor', id, ...guarantor, '--debug'], 0],
      [['loan', 'guarantors', id, '-o', 'table'], 0],
      [['loan', 'employment', id], 0],
      [
        [
          'loan',
          'schedule',
          '--amount',
          '1000',
          '--rate',
          '5',
          '--tenure',
          '3',
          '--tenured-in',
          'months',
          '--rate-type',
          'simple-interest',
          '--frequency',
          'monthly',
        ],
        0,
      ],
      [['api', 'GET', '/loan_request', '-q', `product-id=${sandbox.product_id}`, '-q', 'direction=DESC', '--debug'], 0],
      // failures
      [['api', 'POST', '/loan_request/999999/submit', '-q', 'product-id=1', '--debug'], 4],
      [['loan', 'show', '999999', '--debug'], 4],
      [['loan', 'delete', String(bare.id)], 2], // no --yes, no terminal
      [['loan', 'create', '--user', email, '--amount', 'lots', '--purpose', 'x', '--debug'], 2],
      [['user', 'list', '--base-url', 'http://127.0.0.1:1', '--debug'], 5],
      [['user', 'list', '--base-url', 'http://api.example.com', '--debug'], 2],
      // --dry-run: curl lines, nothing sent
      [['loan', 'update', id, '--purpose', 'x', '--dry-run'], 0],
      [['loan', 'approve', id, ...approve, '--dry-run', '--debug'], 0],
      [['user', 'create', ...borrower('dry@example.com'), '--password-stdin', '--dry-run'], 0],
      [['api', 'DELETE', `/loan_request/${id}`, '-q', 'product-id=1', '--dry-run'], 0],
      // help and version
      [['--help'], 0],
      [['loan', 'approve', '--help'], 0],
      [['--version'], 0],
      [['completion', 'bash'], 0],
    ];
    // One after another, each needing the one before (and the delete last).
    const chain: Array<[string[], number]> = [
      [['loan', 'add-bank', id, ...bank, '--debug'], 0],
      [['loan', 'tokenize', id, '--debug'], 0],
      [['loan', 'add-employment', id, ...employment, '--debug'], 0],
      [['loan', 'add-employment', id, ...employment, '--debug', '--raw'], 1], // second entry: HTTP 500
      [['loan', 'submit', id, '--debug'], 0],
      [['loan', 'approve', id, ...approve, '--debug'], 0],
      [['loan', 'tokenize', String(bare.id), '--debug'], 1], // no bank details: HTTP 500
      [['loan', 'delete', String(bare.id), '--yes', '--debug'], 0],
    ];
    const check = async ([args, code]: [string[], number]) => {
      const result = await run(args, { input: 'pw' });
      expect(result.exitCode, `${args.join(' ')}\n${result.stderr}`).toBe(code);
    };
    const queue = [...independent];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await check(next);
    };
    await Promise.all([
      (async () => {
        for (const step of chain) await check(step);
      })(),
      worker(),
      worker(),
      worker(),
    ]);
    expect(leaks(key)).toEqual([]);
  });

  it('nor a key the API rejects (401), with --debug and --raw', async () => {
    const wrong = { LOANCTL_API_KEY: WRONG_KEY };
    for (const args of [
      ['user', 'list', '--debug'],
      ['loan', 'show', '1', '--debug', '--raw'],
      ['api', 'GET', '/user', '--debug'],
      ['loan', 'submit', '1', '--dry-run'],
    ]) {
      const result = await run(args, { env: wrong });
      expect([0, 3], `${args.join(' ')}: ${result.stderr}`).toContain(result.exitCode);
    }
    expect(leaks(WRONG_KEY)).toEqual([]);
  });

  it('nor when the key comes from a profile: profile add, list, show, use, remove, and a command with it', async () => {
    const configDir = temp('loanctl-secrets-config-');
    const profileEnv = { LOANCTL_CONFIG_DIR: configDir, LOANCTL_API_KEY: undefined, LOANCTL_BASE_URL: undefined };
    const add = await run(
      [
        'profile',
        'add',
        'local',
        '--base-url',
        sandbox.url,
        '--product-id',
        String(sandbox.product_id),
        '--api-key-stdin',
        '--insecure-storage',
      ],
      { env: profileEnv, input: key },
    );
    expect(add.exitCode, add.stderr).toBe(0);
    for (const args of [
      ['profile', 'list'],
      ['profile', 'show'],
      ['profile', 'show', 'local', '-o', 'json'],
      ['profile', 'use', 'local'],
      ['user', 'list', '--debug'],
      ['loan', 'list', '--dry-run'],
      ['profile', 'remove', 'local'],
    ]) {
      const result = await run(args, { env: profileEnv });
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    expect(leaks(key)).toEqual([]);
    // It is in the file, which only its owner may read.
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
  });
});

describe('the config file', () => {
  it('is written 0600; a looser one is tightened on the next run, with a warning that shows no key', async () => {
    const configDir = temp('loanctl-secrets-mode-');
    const profileEnv = { LOANCTL_CONFIG_DIR: configDir, LOANCTL_API_KEY: undefined, LOANCTL_BASE_URL: undefined };
    const add = await run(
      ['profile', 'add', 'prod', '--base-url', 'https://api.example.com', '--api-key-stdin', '--insecure-storage'],
      {
        env: profileEnv,
        input: key,
      },
    );
    expect(add.exitCode, add.stderr).toBe(0);
    const file = join(configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o644);
    const list = await run(['profile', 'list'], { env: profileEnv });
    expect(list.exitCode).toBe(0);
    expect(list.stderr).toMatch(/warning: .*mode 0644.*0600/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await run(['profile', 'list'], { env: profileEnv });
    expect(again.stderr).not.toContain('warning');
    expect(leaks(key)).toEqual([]);
  });
});

describe('a plain http:// base URL that is not loopback', () => {
  const WHY = /plain http:\/\/ is refused for api\.example\.com: the API key would cross the network unencrypted/;

  it.each([
    ['--base-url', { LOANCTL_BASE_URL: undefined }, ['--base-url', 'http://api.example.com']],
    ['LOANCTL_BASE_URL', { LOANCTL_BASE_URL: 'http://api.example.com' }, []],
  ])('from %s: exit 2 before sending, saying why and to use https', async (_from, overrides, flags) => {
    const result = await run(['user', 'list', ...flags], { env: overrides });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(WHY);
    expect(result.stderr).toContain('Use https://api.example.com');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('from a profile edited by hand: the same', async () => {
    const configDir = temp('loanctl-secrets-http-');
    const profileEnv = { LOANCTL_CONFIG_DIR: configDir, LOANCTL_API_KEY: undefined, LOANCTL_BASE_URL: undefined };
    await run(
      ['profile', 'add', 'prod', '--base-url', 'https://api.example.com', '--api-key-stdin', '--insecure-storage'],
      {
        env: profileEnv,
        input: key,
      },
    );
    const file = join(configDir, 'config.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('https://api.example.com', 'http://api.example.com'), {
      mode: 0o600,
    });
    const result = await run(['user', 'list'], { env: profileEnv });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(WHY);
    expect(leaks(key)).toEqual([]);
  });

  it('loopback is allowed: http://localhost and 127.0.0.1 reach the sandbox', async () => {
    const port = new URL(sandbox.url).port;
    for (const url of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      const result = await run(['user', 'list', '--base-url', url]);
      expect(result.exitCode, result.stderr).toBe(0);
    }
  });
});
