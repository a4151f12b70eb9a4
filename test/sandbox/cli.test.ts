/** The sandbox verbs in-process: commander definitions, options → run functions, output and errors. */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { addVerbs } from '../../src/commands/sandbox/index.js';
import { runSandboxStart } from '../../src/commands/sandbox/start.js';
import type { Deps } from '../../src/deps.js';
import { ExitCode, type LoanctlError, UsageError } from '../../src/errors.js';
import { defaultDataDir } from '../../src/sandbox/paths.js';
import { tempDir } from '../helpers/sandbox.js';

const dirs: string[] = [];
afterEach(() => {
  for (const made of dirs.splice(0)) rmSync(made, { recursive: true, force: true });
});
function dir(): string {
  const made = tempDir();
  dirs.push(made);
  return made;
}

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

function fakeDeps(env: Record<string, string> = {}) {
  const stdout = new Capture();
  const stderr = new Capture();
  const deps = {
    io: { stdin: new PassThrough(), stdout, stderr },
    env,
    globals: {},
    now: () => new Date(),
  } as unknown as Deps;
  return { deps, stdout, stderr };
}

async function run(argv: string[], env: Record<string, string> = {}) {
  const { deps, stdout, stderr } = fakeDeps(env);
  const program = new Command('loanctl')
    .exitOverride()
    .configureOutput({ writeErr: (t) => stderr.write(t), writeOut: (t) => stdout.write(t) });
  addVerbs(program.command('sandbox'), deps);
  let error: unknown;
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (caught) {
    error = caught;
  }
  return { stdout: stdout.text, stderr: stderr.text, error };
}

describe('sandbox org create / product create', () => {
  it('prints exactly {org_id, api_key} and {product_id, slug} with --json', async () => {
    const dataDir = dir();
    const org = await run(['sandbox', 'org', 'create', '--name', 'Acme', '--data-dir', dataDir, '--json']);
    expect(org.error).toBeUndefined();
    const created = JSON.parse(org.stdout);
    expect(Object.keys(created)).toEqual(['org_id', 'api_key']);
    const product = await run([
      'sandbox',
      'product',
      'create',
      '--org',
      String(created.org_id),
      '--name',
      'Asset Finance',
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect(JSON.parse(product.stdout)).toEqual({ product_id: 1, slug: 'asset-finance' });
  });

  it('prints data on stdout (JSON when piped, as every command) and notices on stderr', async () => {
    const org = await run(['sandbox', 'org', 'create', '--name', 'Acme', '--data-dir', dir()]);
    expect(JSON.parse(org.stdout)).toEqual({ org_id: 1, api_key: expect.stringMatching(/^sk_sandbox_\w{32}$/) });
    expect(org.stderr).toMatch(/shown only this once/);
  });

  it('uses $XDG_DATA_HOME/loanctl/sandbox by default, else ~/.local/share/loanctl/sandbox', async () => {
    const xdg = dir();
    const result = await run(['sandbox', 'org', 'create', '--name', 'Acme', '--json'], { XDG_DATA_HOME: xdg });
    expect(result.error).toBeUndefined();
    expect(defaultDataDir({ XDG_DATA_HOME: xdg })).toBe(join(xdg, 'loanctl', 'sandbox'));
    expect(defaultDataDir({ HOME: '/home/ada' })).toBe('/home/ada/.local/share/loanctl/sandbox');
    expect(defaultDataDir({ HOME: '/home/ada', XDG_DATA_HOME: 'relative' })).toBe(
      '/home/ada/.local/share/loanctl/sandbox',
    );
  });

  it('answers usage errors (exit 2) for a bad --org, an unknown organisation, and an empty name', async () => {
    const dataDir = dir();
    for (const argv of [
      ['sandbox', 'product', 'create', '--org', 'abc', '--name', 'X', '--data-dir', dataDir],
      ['sandbox', 'product', 'create', '--org', '5', '--name', 'X', '--data-dir', dataDir],
      ['sandbox', 'org', 'create', '--name', ' ', '--data-dir', dataDir],
    ]) {
      const result = await run(argv);
      expect(result.error, argv.join(' ')).toBeInstanceOf(UsageError);
      expect((result.error as LoanctlError).exitCode).toBe(ExitCode.usage);
    }
  });
});

describe('sandbox start', () => {
  // Every start writes the `sandbox` profile: keep it in a temporary config dir, never the real one.
  async function startInProcess(options: Record<string, unknown>, configDir = dir(), globals?: Deps['globals']) {
    const { deps, stdout, stderr } = fakeDeps({ LOANCTL_CONFIG_DIR: configDir });
    if (globals) deps.globals = globals;
    const stop = new AbortController();
    const running = runSandboxStart({ port: '0', ...options, stopSignal: stop.signal }, deps);
    for (let i = 0; i < 200 && !stdout.text.includes('\n'); i++) await new Promise((r) => setTimeout(r, 25));
    return { stdout, stderr, stop, running };
  }

  it('prints one JSON line once listening, serves the API with that key, and stops on the signal', async () => {
    const dataDir = dir();
    const listeners = ['SIGINT', 'SIGTERM'].map((signal) => process.listenerCount(signal));
    const started = await startInProcess({ dataDir, json: true });
    const line = JSON.parse(started.stdout.text);
    expect(Object.keys(line)).toEqual(['url', 'api_key', 'org_id', 'product_id', 'control_key']);
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const reply = await fetch(`${line.url}/api/v1/loan_request?product-id=${line.product_id}&direction=ASC`, {
      headers: { authorization: `Bearer ${line.api_key}` },
    });
    expect(await reply.json()).toEqual({
      status: 'success',
      message: 'Loan requests retrieved successfully',
      data: { loan_requests: [], cursor: 0 },
    });
    started.stop.abort();
    await started.running;
    expect(started.stdout.text.trim().split('\n')).toHaveLength(1);
    await expect(fetch(line.url)).rejects.toThrow();
    // Stopped, it leaves no handler behind: a later Ctrl-C in the same process is not its business.
    expect(['SIGINT', 'SIGTERM'].map((signal) => process.listenerCount(signal))).toEqual(listeners);
  });

  it('-o json prints the same one JSON line as --json', async () => {
    const started = await startInProcess({ dataDir: dir() }, dir(), { output: 'json' });
    expect(Object.keys(JSON.parse(started.stdout.text))).toEqual([
      'url',
      'api_key',
      'org_id',
      'product_id',
      'control_key',
    ]);
    started.stop.abort();
    await started.running;
    expect(started.stdout.text.trim().split('\n')).toHaveLength(1);
  });

  it('prints through -o and --fields as any data: csv, ndjson, and json still one line', async () => {
    for (const [globals, pattern] of [
      [{ output: 'csv', fields: 'url,product_id' }, /^url,product_id\nhttp:\/\/127\.0\.0\.1:\d+,1\n$/],
      [
        { output: 'ndjson' },
        /^\{"url":"http:[^"]+","api_key":"sk_sandbox_\w+","org_id":1,"product_id":1,"control_key":"sk_sandbox_control_\w+"\}\n$/,
      ],
      [{ output: 'json', fields: 'url' }, /^\{"url":"http:\/\/127\.0\.0\.1:\d+"\}\n$/],
    ] as const) {
      const started = await startInProcess({ dataDir: dir() }, dir(), globals);
      started.stop.abort();
      await started.running;
      expect(started.stdout.text, JSON.stringify(globals)).toMatch(pattern);
    }
  });

  it('a --fields naming none of its fields is exit 2 before it listens or makes anything', async () => {
    const dataDir = join(dir(), 'never');
    const { deps } = fakeDeps({ LOANCTL_CONFIG_DIR: dir() });
    deps.globals = { output: 'csv', fields: 'url,key' };
    const refused = runSandboxStart({ port: '0', dataDir }, deps);
    await expect(refused).rejects.toThrow('--fields: unknown field "key".');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('prints a banner: URL, key, product id on stdout; how to use it on stderr', async () => {
    const started = await startInProcess({ dataDir: dir() });
    expect(started.stdout.text).toMatch(
      /Sandbox listening on http:\/\/127\.0\.0\.1:\d+\n {2}API key: +sk_sandbox_\w+\n/,
    );
    expect(started.stdout.text).toMatch(/product id: +1/);
    expect(started.stderr.text).toMatch(/Ctrl-C/);
    started.stop.abort();
    await started.running;
  });

  it('suggests commands to paste that hold no key: the profile, or $LOANCTL_API_KEY for curl', async () => {
    const withProfile = await startInProcess({ dataDir: dir() });
    const withoutProfile = await startInProcess({ dataDir: dir(), profile: false });
    for (const started of [withProfile, withoutProfile]) {
      started.stop.abort();
      await started.running;
    }
    const key = (text: string) => /API key: +(sk_sandbox_\w+)/.exec(text)?.[1] as string;
    expect(withProfile.stderr.text).toMatch(/^Try it: +loanctl loan list$/m);
    expect(withoutProfile.stderr.text).toMatch(/^Try it: +curl -H "Authorization: Bearer \$LOANCTL_API_KEY" "http:/m);
    for (const started of [withProfile, withoutProfile]) {
      expect(started.stderr.text).toMatch(/Bearer \$LOANCTL_API_KEY/);
      expect(started.stderr.text).not.toContain(key(started.stdout.text));
      expect(started.stderr.text).toMatch(/^Dashboard: http:\/\/127\.0\.0\.1:\d+\/dashboard \(loanctl sandbox open;/m);
    }
  });

  it('answers one clear usage error (exit 2) for a port in use, and for a bad --port', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { deps } = fakeDeps();
      const error = await runSandboxStart({ port: String(port), dataDir: dir() }, deps).catch((e) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe(`Port ${port} on 127.0.0.1 is already in use.`);
    } finally {
      blocker.close();
    }
    for (const bad of ['abc', '70000', '-1', '']) {
      const { deps } = fakeDeps();
      const error = await runSandboxStart({ port: bad, dataDir: dir() }, deps).catch((e) => e);
      expect(error, bad).toBeInstanceOf(UsageError);
    }
  });

  it('writes the profile "sandbox" pointing at itself, current when there was none', async () => {
    const configDir = dir();
    const started = await startInProcess({ dataDir: dir(), json: true }, configDir);
    const line = JSON.parse(started.stdout.text);
    started.stop.abort();
    await started.running;
    const file = join(configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(config.current).toBe('sandbox');
    expect(config.profiles.sandbox).toMatchObject({
      baseUrl: line.url,
      apiKey: line.api_key,
      productId: line.product_id,
    });
    expect(started.stderr.text).toContain('Profile "sandbox" points at this sandbox (it is the current profile)');
  });

  it('refreshes the profile without taking over another current profile', async () => {
    const configDir = dir();
    const { writeProfile } = await import('../../src/config/store.js');
    writeProfile(
      'live',
      { baseUrl: 'https://lender.example', apiKey: 'sk_live_x' },
      { env: { LOANCTL_CONFIG_DIR: configDir }, makeCurrent: true },
    );
    const started = await startInProcess({ dataDir: dir() }, configDir);
    started.stop.abort();
    await started.running;
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(config.current).toBe('live');
    expect(Object.keys(config.profiles).sort()).toEqual(['live', 'sandbox']);
    expect(started.stderr.text).toContain('use it with --profile sandbox');
  });

  it('writes no profile with --no-profile', async () => {
    const configDir = dir();
    const started = await startInProcess({ dataDir: dir(), json: true, profile: false }, configDir);
    started.stop.abort();
    await started.running;
    expect(existsSync(join(configDir, 'config.json'))).toBe(false);
  });
});
