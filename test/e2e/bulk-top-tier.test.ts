/**
 * A bulk run turns V8's top tier (TurboFan) off once its first row is answered (src/bulk/top-tier.ts),
 * unless Node was given a tier flag by hand. Seen from outside through V8's own `--trace-opt`,
 * which prints a line for each function it starts compiling: over 3,000 rows against the real
 * sandbox V8's defaults compile dozens with TurboFan (its first after ~500 rows), a bulk run none.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, BIN, isolatedEnv, type SandboxProcess, startSandboxProcess } from '../helpers/sandbox-process.js';

const ROWS = 3_000;
const base = mkdtempSync(join(tmpdir(), 'loanctl-top-tier-'));
const env = isolatedEnv();
let sandbox: SandboxProcess;

beforeAll(async () => {
  assertBuilt();
  sandbox = await startSandboxProcess(join(base, 'data'), env);
});
afterAll(async () => {
  sandbox?.process.kill('SIGKILL');
  await sandbox?.process.catch(() => {});
  rmSync(base, { recursive: true, force: true });
  rmSync(env.HOME as string, { recursive: true, force: true });
});

/** Creates ROWS new borrowers with Node started on `nodeFlags`; returns the TurboFan compiles V8 traced. */
async function turbofanCompiles(tag: string, nodeFlags: string[]): Promise<number> {
  const file = join(base, `${tag}.ndjson`);
  const rows = Array.from({ length: ROWS }, (_, i) =>
    JSON.stringify({
      firstname: 'Tier',
      lastname: `Row ${i + 1}`,
      email: `${tag}-${i + 1}@tier.example`,
      password: 'correct horse battery staple',
      phone: '08012345678',
      gender: 'female',
    }),
  );
  writeFileSync(file, `${rows.join('\n')}\n`);
  const run = await execa(process.execPath, ['--trace-opt', ...nodeFlags, BIN, 'user', 'create', '--from', file], {
    env: { ...env, LOANCTL_BASE_URL: sandbox.line.url, LOANCTL_API_KEY: sandbox.line.api_key },
    extendEnv: false,
    reject: false,
  });
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.stderr).toMatch(new RegExp(`^${ROWS} rows: ${ROWS} created, 0 existed, 0 failed in `, 'm'));
  // V8 writes its trace on stdout, between the result lines.
  return run.stdout.split('\n').filter((line) => /^\[compiling method .*\bTURBOFAN/.test(line)).length;
}

it("a bulk run's rows run without TurboFan", async () => {
  expect(await turbofanCompiles('plain', [])).toBe(0);
}, 60_000);

it('a tier flag given to Node by hand is kept: with --max-opt=3 TurboFan compiles', async () => {
  expect(await turbofanCompiles('by-hand', ['--max-opt=3'])).toBeGreaterThan(0);
}, 60_000);
