/**
 * A bulk run (`--from`) whose server is killed half-way. The real sandbox is SIGKILLed
 * once some results have come out; the run goes on to the end. Then:
 * - every row has exactly one result line, in order, and the run exits 1 with its summary;
 * - a row that failed says either that it was not sent, or that it may or may not have been
 *   applied and that running the file again is safe;
 * - every row reported `success` is in the database after a restart on the same data dir;
 * - running the file again completes it: every e-mail exists exactly once, and for loan requests
 *   there is exactly one per row of the file — none missing, no duplicate.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { assertBuilt, BIN, isolatedEnv, type SandboxProcess, startSandboxProcess } from '../helpers/sandbox-process.js';

interface Result {
  row: number;
  status: 'success' | 'exists' | 'error';
  id?: number;
  email?: string;
  message: string;
}

const base = mkdtempSync(join(tmpdir(), 'loanctl-bulk-crash-'));
const dataDir = join(base, 'data');
const env = isolatedEnv();
const sandboxes: SandboxProcess[] = [];

afterAll(async () => {
  for (const sandbox of sandboxes) {
    sandbox.process.kill('SIGKILL');
    await sandbox.process.catch(() => {});
  }
  rmSync(base, { recursive: true, force: true });
  rmSync(env.HOME as string, { recursive: true, force: true });
});

async function start(dir = dataDir): Promise<SandboxProcess> {
  const sandbox = await startSandboxProcess(dir, env);
  sandboxes.push(sandbox);
  return sandbox;
}

function cliEnv(sandbox: SandboxProcess): Record<string, string> {
  return {
    ...env,
    LOANCTL_BASE_URL: sandbox.line.url,
    LOANCTL_API_KEY: sandbox.line.api_key,
    LOANCTL_PRODUCT_ID: String(sandbox.line.product_id),
  };
}

function parse(stdout: string): Result[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Result);
}

/**
 * Runs a bulk command and SIGKILLs the sandbox (or, `victim: 'loanctl'`, loanctl itself) once
 * `killAfter` result lines have come out.
 */
async function runAndKill(args: string[], sandbox: SandboxProcess, killAfter: number, victim = 'sandbox') {
  const child = execa(process.execPath, [BIN, ...args], {
    env: cliEnv(sandbox),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    buffer: false,
  });
  let stdout = '';
  let stderr = '';
  let killedAt: number | undefined;
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const lines = stdout.split('\n').length - 1;
    if (killedAt === undefined && lines >= killAfter) {
      killedAt = lines;
      (victim === 'loanctl' ? child : sandbox.process).kill('SIGKILL');
    }
  });
  const result = await child;
  if (victim === 'sandbox') await sandbox.process.catch(() => {});
  return { code: result.exitCode, signal: result.signal, stdout, stderr, killedAt };
}

async function cli(sandbox: SandboxProcess, args: string[]) {
  const result = await execa(process.execPath, [BIN, ...args], {
    env: cliEnv(sandbox),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  return { code: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

function checkEveryRow(results: Result[], rows: number) {
  expect(results.map((result) => result.row)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
  for (const result of results) {
    expect(['success', 'error']).toContain(result.status);
    if (result.status === 'error') {
      expect(result.message).toMatch(
        /^(Not sent: .*connection refused.*Running the file again is safe\.|No answer: .* may or may not have been created \(loanctl .* shows whether it was\)\. Running the file again is safe)/,
      );
    }
  }
}

it('a bulk run whose server is killed half-way: every row says what happened, and a re-run completes it', async () => {
  assertBuilt();
  const USERS = 120;
  const LOANS = 400;
  const usersFile = join(base, 'users.ndjson');
  writeFileSync(
    usersFile,
    Array.from({ length: USERS }, (_, i) =>
      JSON.stringify({
        firstname: 'Crash',
        lastname: `Row${i + 1}`,
        email: `crash${i + 1}@bulk.example`,
        password: 'pw',
        phone: '08012345678',
        gender: 'female',
      }),
    ).join('\n'),
  );

  // 1. Users: kill the server once a few results are out.
  const first = await start();
  const run1 = await runAndKill(['user', 'create', '--from', usersFile, '--concurrency', '2'], first, 5);
  expect(run1.killedAt).toBeDefined();
  expect(run1.code).toBe(1);
  const results1 = parse(run1.stdout);
  checkEveryRow(results1, USERS);
  const succeeded = results1.filter((result) => result.status === 'success').map((result) => result.email);
  expect(succeeded.length).toBeGreaterThanOrEqual(5);
  expect(succeeded.length).toBeLessThan(USERS);
  expect(run1.stderr).toMatch(
    new RegExp(`^${USERS} rows: ${succeeded.length} created, 0 existed, \\d+ failed in`, 'm'),
  );

  // 2. Restart on the same data dir: every `success` is there; the re-run completes the file.
  const second = await start();
  const listEmails = async (sandbox: SandboxProcess) => {
    const list = await cli(sandbox, ['user', 'list', '--all', '-o', 'ndjson', '--fields', 'id,email']);
    expect(list.code, list.stderr).toBe(0);
    return parse(list.stdout) as unknown as Array<{ id: number; email: string }>;
  };
  const before = new Set((await listEmails(second)).map((user) => user.email));
  for (const email of succeeded) expect(before.has(email as string), email).toBe(true);
  const rerun = await cli(second, ['user', 'create', '--from', usersFile, '--concurrency', '8']);
  expect(rerun.code, rerun.stderr).toBe(0);
  const results2 = parse(rerun.stdout);
  expect(results2).toHaveLength(USERS);
  for (const result of results2) {
    expect(result.status).toBe(
      succeeded.includes(result.email) ? 'exists' : before.has(result.email as string) ? 'exists' : 'success',
    );
  }
  const users = await listEmails(second);
  const counts = new Map<string, number>();
  for (const user of users) counts.set(user.email, (counts.get(user.email) ?? 0) + 1);
  for (let i = 1; i <= USERS; i++) expect(counts.get(`crash${i}@bulk.example`), `crash${i}`).toBe(1);

  // 3. Loan requests, by e-mail, with identical rows in the file (every 10th row repeats the one before).
  const loansFile = join(base, 'loans.csv');
  const loanRows = Array.from({ length: LOANS }, (_, i) => {
    const n = i % 10 === 9 ? i : i + 1;
    return `crash${(n % USERS) + 1}@bulk.example,${1000 + n},Crash test ${n}`;
  });
  writeFileSync(loansFile, `user,amount,purpose\n${loanRows.join('\n')}\n`);
  const run3 = await runAndKill(['loan', 'create', '--from', loansFile, '--concurrency', '2'], second, 20);
  expect(run3.killedAt).toBeDefined();
  expect(run3.code).toBe(1);
  const results3 = parse(run3.stdout);
  checkEveryRow(results3, LOANS);
  const created = results3.filter((result) => result.status === 'success').map((result) => result.id as number);
  expect(created.length).toBeGreaterThanOrEqual(20);
  expect(created.length).toBeLessThan(LOANS);

  const third = await start();
  const listLoans = async () => {
    const list = await cli(third, [
      'loan',
      'list',
      '--all',
      '--direction',
      'ASC',
      '-o',
      'ndjson',
      '--fields',
      'id,purpose',
    ]);
    expect(list.code, list.stderr).toBe(0);
    return parse(list.stdout) as unknown as Array<{ id: number; purpose: string }>;
  };
  const ids = new Set((await listLoans()).map((loan) => loan.id));
  for (const id of created) expect(ids.has(id), `loan request ${id}`).toBe(true);

  const run4 = await cli(third, ['loan', 'create', '--from', loansFile, '--concurrency', '8']);
  expect(run4.code, run4.stderr).toBe(0);
  expect(parse(run4.stdout)).toHaveLength(LOANS);
  const wanted = new Map<string, number>();
  for (const row of loanRows) {
    const purpose = row.split(',')[2] as string;
    wanted.set(purpose, (wanted.get(purpose) ?? 0) + 1);
  }
  const have = new Map<string, number>();
  for (const loan of await listLoans()) have.set(loan.purpose, (have.get(loan.purpose) ?? 0) + 1);
  expect(have).toEqual(wanted);
}, 180_000);

it('loanctl killed with kill -9 half-way through a loan file: the re-run makes each row exactly once (the grouped journal)', async () => {
  assertBuilt();
  const ROWS = 400;
  const sandbox = await start(join(base, 'kill9-data'));
  const owner = 'kill9-owner@bulk.example';
  const ownerFile = join(base, 'kill9-owner.ndjson');
  writeFileSync(
    ownerFile,
    `${JSON.stringify({ firstname: 'Kill', lastname: 'Nine', email: owner, password: 'pw', phone: '08012345678', gender: 'female' })}\n`,
  );
  const made = await cli(sandbox, ['user', 'create', '--from', ownerFile]);
  expect(made.code, made.stderr).toBe(0);
  const file = join(base, 'kill9-loans.csv');
  const rows = Array.from({ length: ROWS }, (_, i) => `${owner},${2000 + i},Kill nine ${i + 1}`);
  writeFileSync(file, `user,amount,purpose\n${rows.join('\n')}\n`);

  // Killed with requests in flight and acknowledgements still queued for the journal's next write.
  const killed = await runAndKill(['loan', 'create', '--from', file, '--concurrency', '8'], sandbox, 60, 'loanctl');
  expect(killed.signal).toBe('SIGKILL');
  const reported = killed.stdout.split('\n').length - 1;
  expect(reported).toBeLessThan(ROWS);

  const rerun = await cli(sandbox, ['loan', 'create', '--from', file, '--concurrency', '8']);
  expect(rerun.code, rerun.stderr).toBe(0);
  const results = parse(rerun.stdout);
  expect(results.map((result) => result.row)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
  expect(results.filter((result) => result.status === 'exists').length).toBeGreaterThanOrEqual(reported);

  const list = await cli(sandbox, ['loan', 'list', '--all', '-o', 'ndjson', '--fields', 'purpose']);
  expect(list.code, list.stderr).toBe(0);
  const purposes = new Map<string, number>();
  for (const loan of parse(list.stdout) as unknown as Array<{ purpose: string }>) {
    if (loan.purpose.startsWith('Kill nine ')) purposes.set(loan.purpose, (purposes.get(loan.purpose) ?? 0) + 1);
  }
  expect(purposes.size).toBe(ROWS);
  for (const [purpose, count] of purposes) expect(count, purpose).toBe(1);
}, 180_000);
