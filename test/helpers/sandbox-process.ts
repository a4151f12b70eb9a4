/** Starts the real `loanctl sandbox start --json` (the built bin, on this test's Node) and reads its JSON line. */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'bin', 'loanctl.js');

export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'loanctl.mjs'))) {
    throw new Error('dist/loanctl.mjs is missing: run `npm run build` first (npm test does).');
  }
}

export interface SandboxLine {
  url: string;
  api_key: string;
  org_id: number;
  product_id: number;
}

export interface SandboxProcess {
  line: SandboxLine;
  dataDir: string;
  process: ResultPromise;
  /** Everything printed on stdout after the JSON line. */
  rest: () => string;
}

/**
 * An environment that keeps the CLI away from the real home (config, data) and from the machine's
 * own settings: processes get only this (extendEnv: false), so CI, LOANCTL_* or FORCE_COLOR set on
 * a developer's machine or in CI cannot change what a test sees.
 */
export function isolatedEnv(): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), 'loanctl-e2e-home-'));
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    LOANCTL_CONFIG_DIR: join(home, '.config', 'loanctl'),
    NO_COLOR: '1',
  };
}

export function loanctl(args: string[], env: Record<string, string>) {
  return execa(process.execPath, [BIN, ...args], { env, extendEnv: false, stdin: 'ignore', reject: false });
}

export async function startSandboxProcess(dataDir: string, env: Record<string, string>): Promise<SandboxProcess> {
  const child = execa(process.execPath, [BIN, 'sandbox', 'start', '--json', '--port', '0', '--data-dir', dataDir], {
    env,
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
    buffer: false,
  });
  const stdout = child.stdout;
  if (!stdout) throw new Error('no stdout');
  const lines = createInterface({ input: stdout });
  const later: string[] = [];
  const first = await new Promise<string>((resolve, reject) => {
    // Only a run that hangs: on two loaded cores, beside twelve other starts, 15 s was once too short.
    const timer = setTimeout(() => reject(new Error('sandbox start printed nothing in 25 s')), 25_000);
    lines.once('line', (text) => {
      clearTimeout(timer);
      resolve(text);
    });
    child.catch(reject);
    void child.then((result) => reject(new Error(`sandbox start exited early: ${result.exitCode}`)));
  });
  lines.on('line', (text) => later.push(text));
  return { line: JSON.parse(first) as SandboxLine, dataDir, process: child, rest: () => later.join('\n') };
}
