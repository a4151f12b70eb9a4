/**
 * `loanctl sandbox open`: prints the dashboard's URL, and opens it with the system's opener where
 * there is a browser to open (here a stand-in xdg-open on PATH, a real program that notes the URL
 * it was given); a sandbox that does not answer is exit 5.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/ports.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

let sandbox: CliSandbox;
beforeAll(async () => {
  sandbox = await cliSandbox();
});
afterAll(() => sandbox.close());

describe('sandbox open', () => {
  it('prints the URL where there is no browser to open', async () => {
    const result = await sandbox.run(['sandbox', 'open'], { env: { DISPLAY: undefined, WAYLAND_DISPLAY: undefined } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`${sandbox.url}/dashboard\n`);
    expect(result.stderr).toContain('No browser to open here');
  });

  it('opens the dashboard with xdg-open where there is a display', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'loanctl-opener-'));
    const noted = join(bin, 'opened.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${noted}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const result = await sandbox.run(['sandbox', 'open'], {
      env: { DISPLAY: ':0', PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Opened the dashboard in your browser');
    for (let waited = 0; !existsSync(noted) || readFileSync(noted, 'utf8') === ''; waited += 20) {
      if (waited > 10_000) throw new Error('xdg-open was not run');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(readFileSync(noted, 'utf8')).toBe(`${sandbox.url}/dashboard`);
  });

  it('is exit 5, saying how to start one, where no sandbox answers', async () => {
    const port = await closedPort();
    const result = await sandbox.run(['sandbox', 'open'], { env: { LOANCTL_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain(`No sandbox answers at http://127.0.0.1:${port}`);
    expect(result.stdout).toBe('');
  });
});
