/**
 * `loanctl loan open ID` and `loan show ID --web`: the loan request's page in the lender dashboard
 * of the profile's `dashboard-url`, else in the sandbox's own dashboard; opened by the system's
 * opener where there is a browser (here a stand-in xdg-open on PATH, a real program that notes the
 * URL it was given), else printed on stdout. Nothing is sent to the API.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Env } from '../../src/basics.js';
import { isolatedCliEnv, runCli } from '../helpers/run-cli.js';

const SANDBOX = 'http://127.0.0.1:4999';
const noDisplay: Env = { DISPLAY: undefined, WAYLAND_DISPLAY: undefined };
const bins: string[] = [];
afterAll(() => {
  for (const bin of bins) rmSync(bin, { recursive: true, force: true });
});

/** A stand-in xdg-open and the file it writes the URL it was given to. */
function fakeOpener(): { path: string; opened: () => Promise<string> } {
  const bin = mkdtempSync(join(tmpdir(), 'loanctl-opener-'));
  bins.push(bin);
  const noted = join(bin, 'opened.txt');
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${noted}'\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
  return {
    path: `${bin}:${process.env.PATH ?? ''}`,
    // The opener runs detached, after loanctl has returned: wait for what it wrote.
    opened: async () => {
      for (let waited = 0; !existsSync(noted) || readFileSync(noted, 'utf8') === ''; waited += 20) {
        if (waited > 10_000) throw new Error('xdg-open was not run');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return readFileSync(noted, 'utf8');
    },
  };
}

describe('loan open', () => {
  it("prints the sandbox dashboard's page of the loan request where there is no browser", async () => {
    const env = isolatedCliEnv({ LOANCTL_BASE_URL: SANDBOX, ...noDisplay });
    const result = await runCli(['loan', 'open', '172'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${SANDBOX}/dashboard/loans/172\n`);
    expect(result.stderr).toContain('No browser to open here');
    const web = await runCli(['loan', 'show', '172', '--web'], { env });
    expect(web.stdout).toBe(result.stdout);
  });

  it('opens it with xdg-open where there is a display, and prints nothing on stdout', async () => {
    const opener = fakeOpener();
    const env = isolatedCliEnv({ LOANCTL_BASE_URL: SANDBOX, DISPLAY: ':0', PATH: opener.path });
    const result = await runCli(['loan', 'open', '9'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Opened loan request 9 in your browser: ${SANDBOX}/dashboard/loans/9`);
    expect(await opener.opened()).toBe(`${SANDBOX}/dashboard/loans/9`);
  });

  it("uses the profile's dashboard-url template; without one a remote API has no dashboard (exit 2)", async () => {
    const env = isolatedCliEnv(noDisplay);
    const add = ['profile', 'add', 'prod', '--base-url', 'https://api.example.com', '--api-key-stdin'];
    expect((await runCli([...add, '--insecure-storage'], { env, stdin: 'sk_live_x' })).exitCode).toBe(0);
    const none = await runCli(['loan', 'open', '5'], { env });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('loanctl profile set prod --dashboard-url');

    const bad = await runCli(['profile', 'set', 'prod', '--dashboard-url', 'https://lender.example.com/loans'], {
      env,
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('has no {id}');
    const template = 'https://lender.example.com/loans/{id}/view';
    expect((await runCli(['profile', 'set', 'prod', '--dashboard-url', template], { env })).exitCode).toBe(0);
    const shown = await runCli(['profile', 'show', 'prod', '-o', 'json'], { env });
    expect(JSON.parse(shown.stdout)).toMatchObject({ dashboard_url: template });
    const opened = await runCli(['loan', 'open', '5'], { env });
    expect(opened.stdout).toBe('https://lender.example.com/loans/5/view\n');
  });

  it('a loan request id that is not one is exit 2, as for every loan verb', async () => {
    const result = await runCli(['loan', 'open', 'abc'], { env: isolatedCliEnv({ LOANCTL_BASE_URL: SANDBOX }) });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
  });
});
