/**
 * What a network command loads (issue #5, start-up): `loanctl user exists` — the call scripts make
 * most — runs on Node's own node:http and never loads zod, undici (neither the package nor Node's
 * internal copy behind `fetch`) or TLS. Commands that send a body still validate it with zod: the
 * probe sees zod there, which shows it can see it at all. Timings are in `npm run bench`, not here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, borrower, type E2eSandbox, ROOT, startSandbox } from '../helpers/cli.js';

/** Prints, at exit, every module URL loaded and Node's list of its own modules. */
const PROBE = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
const urls = [];
registerHooks({ load(url, context, next) { urls.push(url); return next(url, context); } });
process.on('exit', () => process.stderr.write('\\nPROBE ' + JSON.stringify({ urls, builtins: process.moduleLoadList }) + '\\n'));
`)}`;

interface Loaded {
  /** The files of the bundle (dist/) that were loaded. */
  files: string[];
  /** npm packages bundled into the chunks that were loaded, read from their source maps. */
  packages: Set<string>;
  builtins: string[];
}

async function loadedBy(args: string[], input = ''): Promise<{ stdout: string; exitCode: number; loaded: Loaded }> {
  const result = await execa(process.execPath, ['--import', PROBE, BIN, ...args], {
    env: sandbox.env,
    extendEnv: false,
    reject: false,
    input,
    cwd: ROOT,
  });
  const line = String(result.stderr)
    .split('\n')
    .find((text) => text.startsWith('PROBE '));
  if (!line) throw new Error(`no probe output; stderr: ${result.stderr}`);
  const { urls, builtins } = JSON.parse(line.slice('PROBE '.length)) as { urls: string[]; builtins: string[] };
  const packages = new Set<string>();
  const files = urls.filter((entry) => entry.startsWith('file:') && entry.includes('/dist/'));
  for (const url of files) {
    const map = JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
      if (name) packages.add(name);
    }
  }
  return { stdout: String(result.stdout), exitCode: result.exitCode ?? -1, loaded: { files, packages, builtins } };
}

let sandbox: E2eSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('network command start-up', () => {
  it('user exists answers over node:http without zod, undici or TLS', async () => {
    const { stdout, exitCode, loaded } = await loadedBy([
      'user',
      'exists',
      '--email',
      'nobody@example.com',
      '-o',
      'json',
    ]);
    expect(exitCode).toBe(0);
    expect(stdout.trim()).toBe('false');
    expect(loaded.packages).toContain('commander');
    expect(loaded.packages).not.toContain('zod');
    expect(loaded.packages).not.toContain('undici');
    expect(loaded.builtins).toContain('NativeModule _http_client');
    for (const heavy of ['NativeModule internal/deps/undici/undici', 'NativeModule tls', 'NativeModule https']) {
      expect(loaded.builtins).not.toContain(heavy);
    }
  });

  it('user create still validates its body with zod before sending', async () => {
    const args = ['user', 'create', ...borrower('probe@example.com'), '--password-stdin', '-o', 'json'];
    const { exitCode, loaded } = await loadedBy(args, 'correct horse battery staple');
    expect(exitCode).toBe(0);
    expect(loaded.packages).toContain('zod');
  });

  it('--version and a piped --help load the entry of the bundle and the esbuild helpers, nothing more', async () => {
    for (const flag of ['--version', '--help']) {
      const { exitCode, loaded } = await loadedBy([flag]);
      expect(exitCode).toBe(0);
      expect(loaded.files.map((url) => url.split('/dist/')[1]).sort(), flag).toEqual([
        expect.stringMatching(/^chunks\/chunk-[A-Z0-9]+\.js$/),
        'loanctl.js',
      ]);
      expect(loaded.packages, flag).not.toContain('commander');
    }
  });
});
