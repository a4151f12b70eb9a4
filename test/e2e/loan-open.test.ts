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
import { browserOpener } from '../../src/commands/common/open-url.js';
import { isolatedCliEnv, runCli } from '../helpers/run-cli.js';

const SANDBOX = 'http://127.0.0.1:4999';
const noDisplay: Env = { DISPLAY: undefined, WAYLAND_DISPLAY: undefined };
const bins: string[] = [];
afterAll(() => {
  for (const bin of bins) rmSync(bin, { recursive: true, force: true });
});

/** A stand-in xdg-open and the file it writes the URL it was given to. */
function fakeOpener(): { path: string; opened: () => Promise<string>; ran: () => boolean } {
  const bin = mkdtempSync(join(tmpdir(), 'loanctl-opener-'));
  bins.push(bin);
  const noted = join(bin, 'opened.txt');
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${noted}'\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
  return {
    path: `${bin}:${process.env.PATH ?? ''}`,
    ran: () => existsSync(noted),
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

  it.each([
    ['javascript:alert(1)//{id}', 'not an https:// page'],
    ['file:///etc/passwd?{id}', 'not an https:// page'],
    ['--version{id}', 'not a URL'],
    ['http://lender.example.com/loans/{id}', 'not an https:// page'],
    ['https://me:secret@lender.example.com/loans/{id}', 'user name or password'],
    ['https://lender.example.com/loans/{id}\n--version', 'control character'],
  ])('profile set refuses %j as a dashboard-url (exit 2), and stores nothing', async (template, why) => {
    const env = isolatedCliEnv(noDisplay);
    const add = ['profile', 'add', 'prod', '--base-url', 'https://api.example.com', '--api-key-stdin'];
    expect((await runCli([...add, '--insecure-storage'], { env, stdin: 'sk_live_x' })).exitCode).toBe(0);
    const set = await runCli(['profile', 'set', 'prod', '--dashboard-url', template], { env });
    expect(set.exitCode).toBe(2);
    expect(set.stderr).toContain(why);
    const shown = await runCli(['profile', 'show', 'prod', '-o', 'json'], { env });
    expect(JSON.parse(shown.stdout)).toMatchObject({ dashboard_url: null });
  });

  it('stores a dashboard-url as the URL parser writes it back', async () => {
    const env = isolatedCliEnv(noDisplay);
    const add = ['profile', 'add', 'prod', '--base-url', 'https://api.example.com', '--api-key-stdin'];
    expect((await runCli([...add, '--insecure-storage'], { env, stdin: 'sk_live_x' })).exitCode).toBe(0);
    const typed = 'HTTPS://Lender.Example.com:443/a b/../loans/{id}?tab=<all>';
    const set = await runCli(['profile', 'set', 'prod', '--dashboard-url', typed.replace(' ', '%20')], { env });
    expect(set.exitCode, set.stderr).toBe(0);
    const shown = await runCli(['profile', 'show', 'prod', '-o', 'json'], { env });
    expect(JSON.parse(shown.stdout)).toMatchObject({
      dashboard_url: 'https://lender.example.com/loans/{id}?tab=%3Call%3E',
    });
  });

  it.each([
    'javascript:alert(document.cookie)//{id}',
    'file:///etc/passwd#{id}',
    '--version {id}',
    'https://lender.example.com/{id}\nfile:///etc/passwd',
  ])('never hands the opener a dashboardUrl of %j written into the config file (exit 2)', async (template) => {
    const opener = fakeOpener();
    const env = isolatedCliEnv({ DISPLAY: ':0', PATH: opener.path });
    const add = ['profile', 'add', 'prod', '--base-url', 'https://api.example.com', '--api-key-stdin'];
    expect((await runCli([...add, '--insecure-storage'], { env, stdin: 'sk_live_x' })).exitCode).toBe(0);
    const file = join(env.LOANCTL_CONFIG_DIR as string, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    config.profiles.prod.dashboardUrl = template;
    writeFileSync(file, JSON.stringify(config));
    const result = await runCli(['loan', 'open', '5'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/The dashboardUrl of profile "prod" in the config file: .* (is not|holds)/);
    expect(result.stdout).toBe('');
    expect(opener.ran()).toBe(false);
  });

  it('on Windows the opener is started without a shell (no cmd /c start, which runs what follows a &)', () => {
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      const opener = browserOpener({ DISPLAY: ':0', PATH: fakeOpener().path }, platform);
      expect(opener?.command).toMatch(/^(rundll32|open|xdg-open)$/);
      expect(opener?.args.join(' ')).not.toMatch(/\/c|start/);
    }
  });

  it('a loan request id that is not one is exit 2, as for every loan verb', async () => {
    const result = await runCli(['loan', 'open', 'abc'], { env: isolatedCliEnv({ LOANCTL_BASE_URL: SANDBOX }) });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
  });
});
