/**
 * The oldest Node the package supports (package.json's engines: 22.13) runs the built CLI and the
 * sandbox: the demo, and a bulk create against a sandbox that Node serves, its request log
 * included, and a NUL in a text refused rather than stored and read back cut. Every other test
 * runs on the checkout's Node 24, whose node:sqlite has what 22.13's lacks (src/sandbox/repos/
 * rows.ts, sqlite-state.ts, nul-text.ts). Its own tier, `npm run test:oldest-node`: that Node
 * comes from the npm registry, installed by `npm run oldest-node` (scripts/oldest-node.mjs, which
 * .ci/run runs first), never by this test; without it the test skips and says why.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a script of the project, in plain JavaScript without declarations.
import { oldestNodePath, oldestNodeVersion } from '../../scripts/oldest-node.mjs';
import { assertBuilt, BIN, ROOT, spawnHome } from '../helpers/cli.js';

const node: string = oldestNodePath();
const installed = existsSync(node);
if (!installed) {
  console.warn(
    `test/e2e/oldest-node.test.ts skipped: Node ${oldestNodeVersion()} is not installed at ${node}; ` +
      '`npm run oldest-node` installs it from the npm registry (.ci/run does, before this tier).',
  );
}

let home: string;
let env: Record<string, string>;
let removeHome: (() => void) | undefined;

beforeAll(() => {
  if (!installed) return;
  assertBuilt();
  ({ home, env, remove: removeHome } = spawnHome('loanctl-e2e-oldest-node-'));
});

afterAll(() => removeHome?.());

function loanctl(args: string[], extraEnv: Record<string, string> = {}) {
  return execa(node, [BIN, ...args], {
    env: { ...env, ...extraEnv },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
    cwd: ROOT,
  });
}

describe.skipIf(!installed)(`the oldest Node the package supports (engines: ${oldestNodeVersion()})`, () => {
  it('is the Node these tests run the CLI on', async () => {
    const result = await execa(node, ['--version']);
    expect(result.stdout).toBe(`v${oldestNodeVersion()}`);
  });

  it('runs the demo to the approved loan request, with no warning about node:sqlite', async () => {
    const result = await loanctl(['demo', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('ExperimentalWarning');
    const steps = JSON.parse(result.stdout) as { command: string; result: unknown }[];
    expect(steps).toHaveLength(9);
    expect(steps.at(-1)?.result).toMatchObject({ loan_request: { lender_status: 'approved' } });
  });

  it('serves a bulk create, lists every borrower back, refuses text it would cut and logs the requests', async () => {
    const dataDir = join(home, 'sandbox');
    const started = await loanctl(['sandbox', 'start', '--detach', '--json', '--port', '0', '--data-dir', dataDir]);
    expect(started.exitCode, started.stderr).toBe(0);
    try {
      const { url, api_key } = JSON.parse(started.stdout) as { url: string; api_key: string };
      const api = { LOANCTL_BASE_URL: url, LOANCTL_API_KEY: api_key };
      const count = 120;
      const rows = Array.from(
        { length: count },
        (_, row) => `Ada,Obi ${row},ada${row}@example.com,Passw0rd!${row},0803${String(row).padStart(7, '0')},female`,
      );
      const file = join(home, 'borrowers.csv');
      writeFileSync(file, `firstname,lastname,email,password,phone,gender\n${rows.join('\n')}\n`);

      const bulk = await loanctl(['user', 'create', '--from', file, '--concurrency', '8'], api);
      expect(bulk.exitCode, bulk.stderr).toBe(0);
      const results = bulk.stdout.split('\n').map((line) => JSON.parse(line) as { status: string });
      expect(results.filter((result) => result.status === 'success')).toHaveLength(count);

      const list = await loanctl(['user', 'list', '--all', '-o', 'json'], api);
      expect(list.exitCode, list.stderr).toBe(0);
      const emails = (JSON.parse(list.stdout) as { email: string }[]).map((user) => user.email);
      expect(emails.filter((email) => /^ada\d+@example\.com$/.test(email))).toHaveLength(count);

      // node:sqlite there would read this name back as "Ad": refused, where Node 24 keeps it whole.
      const nul = await fetch(`${url}/api/v1/user`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ firstname: 'Ad\u0000a', lastname: 'Obi', email: 'nul@example.com' }),
      });
      expect(nul.status).toBe(400);
      expect(((await nul.json()) as { message: string }).message).toContain('NUL character');

      // Stopping writes the log's last batch out; then every create is in it.
      expect((await loanctl(['sandbox', 'stop', '--data-dir', dataDir])).exitCode).toBe(0);
      const logs = await loanctl(['sandbox', 'logs', '--data-dir', dataDir, '--limit', '1000', '-o', 'json']);
      expect(logs.exitCode, logs.stderr).toBe(0);
      const entries = JSON.parse(logs.stdout) as { method: string; status: string }[];
      const creates = entries.filter((entry) => entry.method === 'POST' && entry.status === 'success');
      expect(creates).toHaveLength(count);
    } finally {
      await loanctl(['sandbox', 'stop', '--data-dir', dataDir]);
    }
  });
});
