/**
 * Random argv to the CLI: whatever the operator types, `main` resolves
 * with an exit code from the table of docs/guide.md#exit-codes, prints no stack trace (unless `--debug`),
 * and reports no "unexpected error" (the line main.ts uses for a bug). The vocabulary comes from
 * the real commander tree — every command and every flag, so a new one is covered — mixed with
 * values built to break things. In process (`runCli`: main with captured streams, no waits between
 * retries) against the in-process sandbox listening on 127.0.0.1, then a bounded sample through
 * the real built binary.
 *
 * Left out, by design: `sandbox start`, `sandbox logs --follow` and `demo` run until stopped or take the whole flow;
 * `--base-url` values are loopback or refused ones, so nothing leaves the machine.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/deps.js';
import { buildWholeProgram } from '../../src/program.js';
import { fakeIo } from '../helpers/fake-io.js';
import { type CliSandbox, cliSandbox, runCli } from '../helpers/run-cli.js';
import { call, sampleBody, seedLoanRequest } from '../helpers/sandbox.js';
import { assertBuilt, cleanEnv, cli, EXIT_CODES, removeTemps, temp } from './helpers.js';

const SEED = 6_000_006;

let sandbox: CliSandbox;
let env: Record<string, string>;
let cwd: string;
const originalCwd = process.cwd();

beforeAll(async () => {
  assertBuilt();
  sandbox = await cliSandbox();
  env = cleanEnv({
    LOANCTL_BASE_URL: sandbox.url,
    LOANCTL_API_KEY: sandbox.api_key,
    LOANCTL_PRODUCT_ID: String(sandbox.product_id),
  });
  // Commands that write relative paths (e.g. --data-dir x) write into a temporary directory.
  // Records for random ids to find: users, loan requests (one with bank details).
  const org = sandbox.org;
  await seedLoanRequest(sandbox.app, org);
  const { loanRequestId } = await seedLoanRequest(sandbox.app, org);
  await call(sandbox.app, 'addBankDetails', {
    key: org.api_key,
    params: { id: loanRequestId },
    productId: org.product_id,
    body: sampleBody('addBankDetails', org.org_id),
  });
  cwd = temp('loanctl-argv-cwd-');
  process.chdir(cwd);
});
afterAll(async () => {
  process.chdir(originalCwd);
  await sandbox?.close();
  removeTemps();
});

// ---------------------------------------------------------------------------------------------
// The vocabulary, from the real command tree

interface Flag {
  flag: string;
  takesValue: boolean;
  choices: readonly string[] | undefined;
}

interface Verb {
  path: string[];
  /** Positional arguments it takes (e.g. `<id>`). */
  args: number;
  flags: Flag[];
}

const EXCLUDED = [['sandbox', 'start'], ['demo']];

async function verbs(): Promise<Verb[]> {
  const program = await buildWholeProgram(createDeps({ io: fakeIo(), env: {} }));
  const flagsOf = (command: Command): Flag[] =>
    command.options.flatMap((option) =>
      [option.long, option.short]
        .filter((flag): flag is string => Boolean(flag))
        .map((flag) => ({ flag, takesValue: option.required || option.optional, choices: option.argChoices })),
    );
  const globals = flagsOf(program);
  const found: Verb[] = [];
  const walk = (command: Command, path: string[]) => {
    found.push({ path, args: command.registeredArguments.length, flags: [...flagsOf(command), ...globals] });
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return found.filter((verb) => !EXCLUDED.some((prefix) => prefix.every((word, i) => verb.path[i] === word)));
}

const VALUES = [
  '',
  ' ',
  '-',
  '--',
  '-1',
  '0',
  '1',
  '2',
  '1.5',
  '1e400',
  'NaN',
  'abc',
  '50000',
  '1,000,000',
  'ada@example.com',
  'not-an-email',
  '08012345678',
  '+2348012345678',
  '2024-02-30',
  '2024-01-31',
  'ASC',
  'DESC',
  'json',
  'table',
  'csv',
  'ndjson',
  'months',
  'weekly',
  'simple-interest',
  'id,status',
  'nope,nothing',
  '{"purpose":"x"}',
  '{not json',
  '@/nonexistent/file.json',
  '@.',
  'GET',
  'POST',
  '/api/v1/user',
  '/loan_request',
  'product-id=1',
  'x=',
  'http://127.0.0.1:1',
  'http://evil.example',
  'ftp://x',
  'bash',
  'zsh',
  'fish',
  'prod',
  "'; DROP TABLE users;--",
  '\u001b[31m',
  '\u0000',
  '\u202e',
  '👩🏾‍💻',
  'x'.repeat(5000),
];

const value = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

/**
 * A verb, then its positional arguments (ids that exist, or not), then some of its flags, each
 * with a value where it takes one (one of its choices, or anything), and now and then a stray
 * word of the whole tree or a random string.
 */
function argvArb(all: Verb[]) {
  const everyWord = [...new Set(all.flatMap((verb) => [...verb.path, ...verb.flags.map((f) => f.flag)]))];
  return fc.constantFrom(...all).chain((verb) => {
    const positional = fc.array(fc.oneof(fc.constantFrom('1', '2', '3', '999999'), value), {
      minLength: 0,
      maxLength: verb.args + 1,
    });
    const flag = fc.constantFrom(...verb.flags).chain((f) => {
      if (!f.takesValue) return fc.constant([f.flag]);
      const choice = f.choices?.length ? fc.constantFrom(...f.choices) : value;
      return fc.oneof(
        { weight: 8, arbitrary: fc.oneof(choice, value).map((v) => [f.flag, v]) },
        { weight: 1, arbitrary: fc.constant([f.flag]) },
      );
    });
    const stray = fc.oneof(fc.constantFrom(...everyWord), fc.string({ maxLength: 12 })).map((word) => [word]);
    const tail = fc.array(fc.oneof({ weight: 6, arbitrary: flag }, { weight: 1, arbitrary: stray }), {
      maxLength: 10,
    });
    return fc.tuple(positional, tail).map(([args, rest]) => [...verb.path, ...args, ...rest.flat()]);
  });
}

/** Would this argv start a long-running command once commander resolved it? */
function longRunning(argv: string[]): boolean {
  const words = argv.filter((word) => !word.startsWith('-'));
  const following = words.includes('logs') && (argv.includes('--follow') || argv.includes('-f'));
  return words.includes('demo') || (words.includes('sandbox') && words.includes('start')) || following;
}

async function runInProcess(argv: string[]) {
  // A key given here goes to the file: the OS keyring is this process's own session (a developer's
  // real keyring), so it is tested in spawned processes only (test/e2e/keyring.test.ts).
  const keyToFile = argv.includes('--api-key-stdin') && !argv.includes('--insecure-storage');
  const result = await runCli(keyToFile ? [...argv, '--insecure-storage'] : argv, {
    env,
    stdin: '',
    sleep: async () => {},
  });
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

function expectSound(argv: string[], result: { code: number; stderr: string }) {
  const debug = argv.includes('--debug');
  const label = `${JSON.stringify(argv).slice(0, 300)} → ${result.code}\n${result.stderr.slice(0, 600)}`;
  expect(EXIT_CODES as readonly number[], label).toContain(result.code);
  if (!debug) expect(result.stderr, label).not.toMatch(/\n\s+at .+:\d+:\d+\)?/);
  expect(result.stderr, label).not.toContain('unexpected error');
}

describe('random argv', () => {
  it('in process: an exit code from the table, no stack trace, no unexpected error', async () => {
    const all = await verbs();
    expect(all.length).toBeGreaterThan(20);
    const codes = new Set<number>();
    await fc.assert(
      fc.asyncProperty(argvArb(all), async (argv) => {
        fc.pre(!longRunning(argv));
        const result = await runInProcess(argv);
        codes.add(result.code);
        expectSound(argv, result);
      }),
      {
        numRuns: 400,
        seed: SEED,
        // Besides the random ones, a run of each kind for sure: success, API error (tokenize with
        // no bank details), usage, not found, network.
        examples: [
          [['loan', 'show', '2', '-o', 'table']],
          [['loan', 'tokenize', '1', '--debug']],
          [['loan', 'show', '2', '--fields', 'nope']],
          [['loan', 'progress', '999999']],
          [['user', 'list', '--base-url', 'http://127.0.0.1:1']],
        ],
      },
    );
    expect([...codes].sort()).toEqual(expect.arrayContaining([0, 1, 2, 4, 5]));
  }, 120_000);

  it('through the real binary (a bounded sample): the same', async () => {
    const sample = fc
      .sample(argvArb(await verbs()), { numRuns: 40, seed: SEED + 1 })
      .filter((argv) => !longRunning(argv) && !argv.some((word) => word.includes('\u0000')))
      .slice(0, 12);
    for (const argv of sample) {
      const result = await cli(argv, { ...env, HOME: join(cwd, 'home') });
      expectSound(argv, result);
    }
  }, 120_000);
});
