/**
 * What bin/loanctl.js does before the bundle runs: a closed pipe ends the run quietly, and
 * NO_COLOR beats FORCE_COLOR without Node warning about it. Runs the built CLI (npm test builds).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'loanctl.js');
const home = mkdtempSync(join(tmpdir(), 'loanctl-shim-'));
const env = { HOME: home, LOANCTL_CONFIG_DIR: join(home, 'config'), PATH: process.env.PATH ?? '' };
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('bin/loanctl.js', () => {
  it('stops quietly with exit 0 when the reader closes the pipe early', async () => {
    // 100 years of daily instalments: megabytes of NDJSON, far more than a pipe buffers, offline.
    const schedule = [
      'loan schedule --amount 100000 --rate 1 --tenure 1200 --tenured-in months',
      '--rate-type simple-interest --frequency daily -o ndjson',
    ].join(' ');
    const script = `"$NODE" "$BIN" ${schedule} 2>"$ERR" | head -1; echo "loanctl exit: \${PIPESTATUS[0]}"`;
    const errFile = join(home, 'stderr.txt');
    const result = await execa('bash', ['-c', script], {
      env: { ...env, NODE: process.execPath, BIN, ERR: errFile },
      extendEnv: false,
    });
    const [firstRow, exitLine] = result.stdout.split('\n');
    expect(JSON.parse(firstRow ?? '')).toMatchObject({ number: 1 });
    expect(exitLine).toBe('loanctl exit: 0');
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(errFile, 'utf8')).toBe('');
  });

  it('a failed write (a full disk) is one line and exit 1, never a stack trace', async () => {
    const script = `"$NODE" "$BIN" loan schedule --amount 1000 --rate 1 --tenure 3 --tenured-in months --rate-type simple-interest --frequency monthly -o json > /dev/full`;
    const result = await execa('bash', ['-c', script], {
      env: { ...env, NODE: process.execPath, BIN },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('loanctl: could not write the output: ENOSPC: no space left on device, write');
  });

  it('lets NO_COLOR win over FORCE_COLOR, with no warning from Node', async () => {
    const result = await execa(process.execPath, [BIN, 'loan', 'schedule', '--help'], {
      env: { ...env, NO_COLOR: '1', FORCE_COLOR: '1' },
      extendEnv: false,
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain('\u001b[');
  });
});
