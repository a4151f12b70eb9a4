/**
 * Where API keys are stored, end to end: the built bin against a real Secret Service
 * (gnome-keyring in a private D-Bus session this file starts) and, without one, the 0600 file.
 * `profile test` checks the key against a real `node:http` server.
 *
 * The keyring half needs `dbus-run-session` and `gnome-keyring-daemon` (.ci/run installs them on
 * Debian) and is skipped, saying why, where they are missing. The fallback half needs a platform
 * whose keyring can be absent: Linux with no D-Bus session (macOS and Windows always have one).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, LOANCTL, loanctlPath, ROOT, TEST_BINARY } from '../helpers/cli.js';
import { closedPort } from '../helpers/ports.js';
import { json, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk_live_KEYRINGSECRET_0badf00d';
const OTHER_KEY = 'sk_live_SECONDSECRET_0ddba11f';

const homes: string[] = [];
function newHome() {
  const home = mkdtempSync(join(tmpdir(), 'loanctl-e2e-keyring-'));
  homes.push(home);
  return home;
}

let server: ScriptedServer;
beforeAll(async () => {
  assertBuilt();
  server = await scriptedServer();
});
afterAll(async () => {
  await server?.close();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** The server accepts KEY only, as the real API does with a good and a bad key. */
function acceptOnly(key: string) {
  server.script((req, res) => {
    if (req.headers.authorization === `Bearer ${key}`)
      json(res, 200, { status: 'success', message: 'ok', data: false });
    else json(res, 401, { status: 'error', message: 'API key is invalid' });
  });
}

/** A clean environment (no D-Bus unless `bus` is given), a temporary HOME and config dir. */
function loanctl(
  home: string,
  args: string[],
  options: { input?: string; bus?: string; env?: Record<string, string> } = {},
) {
  return execa(LOANCTL[0], [...LOANCTL.slice(1), ...args], {
    input: options.input ?? '',
    reject: false,
    extendEnv: false,
    env: {
      PATH: loanctlPath(),
      HOME: home,
      XDG_DATA_HOME: join(home, 'data'),
      LOANCTL_CONFIG_DIR: join(home, 'config'),
      NO_COLOR: '1',
      ...(options.bus ? { DBUS_SESSION_BUS_ADDRESS: options.bus } : {}),
      ...options.env,
    },
  });
}

function configText(home: string) {
  return readFileSync(join(home, 'config', 'config.json'), 'utf8');
}
function profileOnDisk(home: string, name: string) {
  return JSON.parse(configText(home)).profiles[name];
}
/** Every file under the config dir, concatenated: the key must be in none of them. */
function everythingUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

const secretServiceMissing =
  process.platform !== 'linux'
    ? 'the Secret Service test runs on Linux'
    : !has('dbus-run-session') || !has('gnome-keyring-daemon')
      ? 'dbus-run-session or gnome-keyring-daemon is missing (apt-get install gnome-keyring dbus-x11 libsecret-1-0)'
      : undefined;

/**
 * A private D-Bus session with an unlocked gnome-keyring, alive until `end()`: its keyrings are
 * kept under `home`, so nothing touches the machine's own keyring.
 */
async function keyringSession(
  home: string,
): Promise<{ bus: string; secret(account: string): Promise<string | null>; end(): Promise<void> }> {
  const script =
    'printf %s test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; echo "$DBUS_SESSION_BUS_ADDRESS"; exec cat';
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', script], {
    env: { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data') },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const bus = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`dbus-run-session exited with ${code}`)));
  });
  return {
    bus,
    /** What the Secret Service itself holds for loanctl's account, read with the same library. */
    async secret(account: string) {
      const code = `const { Entry } = require('@napi-rs/keyring'); const value = new Entry('loanctl', process.argv[1], { linux: { store: 'secret-service' } }).getPassword(); process.stdout.write(JSON.stringify(value));`;
      const result = await execa(process.execPath, ['-e', code, account], {
        cwd: ROOT,
        extendEnv: false,
        env: { PATH: process.env.PATH ?? '', HOME: home, DBUS_SESSION_BUS_ADDRESS: bus },
      });
      return JSON.parse(result.stdout) as string | null;
    },
    async end() {
      child.stdin.end();
      await new Promise((resolve) => child.once('close', resolve));
    },
  };
}

describe.skipIf(secretServiceMissing !== undefined)(
  `keys in a real Secret Service${secretServiceMissing ? ` (skipped: ${secretServiceMissing})` : ''}`,
  () => {
    let home: string;
    let session: Awaited<ReturnType<typeof keyringSession>>;
    beforeAll(async () => {
      home = newHome();
      session = await keyringSession(home);
    });
    afterAll(async () => {
      await session?.end();
    });

    it('profile add puts the key in the keyring, not the file; commands and profile test use it', async () => {
      const added = await loanctl(home, ['profile', 'add', 'prod', '--base-url', server.url, '--api-key-stdin'], {
        input: KEY,
        bus: session.bus,
      });
      expect(added.exitCode).toBe(0);
      expect(added.stderr).toContain('the API key is in the OS keyring');
      expect(added.stderr).not.toContain('warning');
      const stored = profileOnDisk(home, 'prod');
      expect(stored.apiKey).toBeUndefined();
      expect(await session.secret(stored.keyringAccount)).toBe(KEY);
      expect(everythingUnder(join(home, 'config'))).not.toContain(KEY);

      acceptOnly(KEY);
      const tested = await loanctl(home, ['profile', 'test', '-o', 'json'], { bus: session.bus });
      expect(tested.exitCode).toBe(0);
      expect(JSON.parse(tested.stdout)).toEqual({
        profile: 'prod',
        base_url: server.url,
        key_storage: 'keyring',
        result: 'ok',
      });
      expect(tested.stderr).toContain('the API key is in the OS keyring');
      // One harmless read, carrying the key from the keyring.
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.method).toBe('GET');
      expect(server.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
      expect(tested.stdout + tested.stderr).not.toContain(KEY);

      const listed = await loanctl(home, ['profile', 'list', '-o', 'json'], { bus: session.bus });
      expect(JSON.parse(listed.stdout)[0]).toMatchObject({ name: 'prod', api_key: null, key_storage: 'keyring' });
    });

    it('profile test: a rejected key is exit 3, an unreachable server exit 5', async () => {
      acceptOnly(OTHER_KEY);
      const rejected = await loanctl(home, ['profile', 'test', 'prod'], { bus: session.bus });
      expect(rejected.exitCode).toBe(3);
      expect(rejected.stderr).toContain('the API key is in the OS keyring');
      expect(rejected.stderr).toContain('rejected the API key');

      const port = await closedPort();
      const unreachable = await loanctl(home, ['profile', 'test', 'prod', '--timeout', '2'], {
        bus: session.bus,
        env: { LOANCTL_BASE_URL: `http://127.0.0.1:${port}` },
      });
      expect(unreachable.exitCode).toBe(5);
      expect(unreachable.stderr).toContain('connection refused');
      expect(rejected.stderr + unreachable.stderr).not.toContain(KEY);
    });

    it.runIf(TEST_BINARY)(
      'the binary loads the keyring addon from a private cache, and replaces a copy that is not its own',
      async () => {
        const native = join(home, 'config', 'cache', 'native');
        const addon = join(native, readdirSync(native).find((name) => name.endsWith('.node')) ?? 'missing');
        expect(statSync(native).mode & 0o777).toBe(0o700);
        expect(statSync(addon).mode & 0o777).toBe(0o600);
        const size = statSync(addon).size;
        writeFileSync(addon, 'not the addon');
        acceptOnly(KEY);
        const tested = await loanctl(home, ['profile', 'test', 'prod', '-o', 'json'], { bus: session.bus });
        expect(tested.exitCode).toBe(0);
        expect(JSON.parse(tested.stdout).key_storage).toBe('keyring');
        expect(statSync(addon).size).toBe(size);
      },
    );

    it('without the keyring a keyring profile is exit 3 in one line; LOANCTL_API_KEY still wins', async () => {
      acceptOnly(KEY);
      const noBus = await loanctl(home, ['api', 'GET', '/api/v1/user', '--profile', 'prod']);
      expect(noBus.exitCode).toBe(3);
      expect(noBus.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^loanctl: The API key of profile "prod" is in the OS keyring, which did not answer: .*set LOANCTL_API_KEY\.$/,
        ),
      ]);
      // A usage error is found without the key: still exit 2, whatever the keyring says.
      const noProduct = await loanctl(home, ['loan', 'list', '--profile', 'prod']);
      expect(noProduct.exitCode).toBe(2);
      expect(noProduct.stderr).toContain('Missing --product');
      server.script((_req, res) => json(res, 200, { status: 'success', message: 'ok', data: false }));
      const fromEnv = await loanctl(home, ['profile', 'test', 'prod', '-o', 'json'], {
        env: { LOANCTL_API_KEY: OTHER_KEY },
      });
      expect(fromEnv.exitCode).toBe(0);
      expect(JSON.parse(fromEnv.stdout).key_storage).toBe('env');
      expect(server.requests[0]?.authorization).toBe(`Bearer ${OTHER_KEY}`);
    });

    it('moves a key between file and keyring without losing it, writing the new place first', async () => {
      const added = await loanctl(
        home,
        ['profile', 'add', 'moving', '--base-url', server.url, '--api-key-stdin', '--insecure-storage'],
        {
          input: KEY,
          bus: session.bus,
        },
      );
      expect(added.exitCode).toBe(0);
      expect(added.stderr).not.toContain('warning');
      expect(profileOnDisk(home, 'moving').apiKey).toBe(KEY);

      // No keyring answering: the move fails (exit 3) and the key stays in the file.
      const failed = await loanctl(home, ['profile', 'move-key', 'moving', '--to', 'keyring']);
      expect(failed.exitCode).toBe(3);
      expect(failed.stderr).toContain('It is still in the file.');
      expect(profileOnDisk(home, 'moving').apiKey).toBe(KEY);

      const toKeyring = await loanctl(home, ['profile', 'move-key', 'moving', '--to', 'keyring'], { bus: session.bus });
      expect(toKeyring.exitCode).toBe(0);
      const account = profileOnDisk(home, 'moving').keyringAccount;
      expect(profileOnDisk(home, 'moving').apiKey).toBeUndefined();
      expect(await session.secret(account)).toBe(KEY);
      acceptOnly(KEY);
      expect((await loanctl(home, ['profile', 'test', 'moving'], { bus: session.bus })).exitCode).toBe(0);

      const toFile = await loanctl(home, ['profile', 'move-key', 'moving', '--to', 'file'], { bus: session.bus });
      expect(toFile.exitCode).toBe(0);
      expect(profileOnDisk(home, 'moving').apiKey).toBe(KEY);
      expect(statSync(join(home, 'config', 'config.json')).mode & 0o777).toBe(0o600);
      expect(await session.secret(account)).toBeNull();
      // Works with no keyring at all now.
      expect((await loanctl(home, ['profile', 'test', 'moving'])).exitCode).toBe(0);

      // `profile add` again moves it too: into the keyring (the file's copy gone)…
      await loanctl(home, ['profile', 'add', 'moving', '--base-url', server.url, '--api-key-stdin'], {
        input: KEY,
        bus: session.bus,
      });
      const again = profileOnDisk(home, 'moving');
      expect(again.apiKey).toBeUndefined();
      expect(await session.secret(again.keyringAccount)).toBe(KEY);
      // …and with --insecure-storage back into the file (the keyring's copy gone).
      await loanctl(
        home,
        ['profile', 'add', 'moving', '--base-url', server.url, '--api-key-stdin', '--insecure-storage'],
        {
          input: KEY,
          bus: session.bus,
        },
      );
      expect(profileOnDisk(home, 'moving').apiKey).toBe(KEY);
      expect(await session.secret(again.keyringAccount)).toBeNull();
    });

    it('sandbox start keeps its own key in the file and deletes the one a profile add sandbox put in the keyring', async () => {
      await loanctl(home, ['profile', 'add', 'sandbox', '--base-url', server.url, '--api-key-stdin'], {
        input: OTHER_KEY,
        bus: session.bus,
      });
      const account = profileOnDisk(home, 'sandbox').keyringAccount;
      expect(await session.secret(account)).toBe(OTHER_KEY);
      const sandbox = spawn(
        LOANCTL[0],
        [...LOANCTL.slice(1), 'sandbox', 'start', '--json', '--port', '0', '--data-dir', join(home, 'sandbox-data')],
        {
          env: {
            PATH: loanctlPath(),
            HOME: home,
            LOANCTL_CONFIG_DIR: join(home, 'config'),
            DBUS_SESSION_BUS_ADDRESS: session.bus,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      try {
        const banner = createInterface({ input: sandbox.stderr });
        const written = new Promise<void>((resolve) =>
          banner.on('line', (line) => line.includes('Profile "sandbox" points at this sandbox') && resolve()),
        );
        const info = JSON.parse(
          await new Promise<string>((resolve) => createInterface({ input: sandbox.stdout }).once('line', resolve)),
        );
        await written;
        expect(profileOnDisk(home, 'sandbox')).toMatchObject({ apiKey: info.api_key });
        expect(profileOnDisk(home, 'sandbox').keyringAccount).toBeUndefined();
        expect(await session.secret(account)).toBeNull();
      } finally {
        sandbox.kill('SIGTERM');
        await new Promise((resolve) => sandbox.once('close', resolve));
      }
    });

    it('profile remove deletes the key from the keyring', async () => {
      const account = profileOnDisk(home, 'prod').keyringAccount;
      expect(await session.secret(account)).toBe(KEY);
      const removed = await loanctl(home, ['profile', 'remove', 'prod'], { bus: session.bus });
      expect(removed.exitCode).toBe(0);
      expect(profileOnDisk(home, 'prod')).toBeUndefined();
      expect(await session.secret(account)).toBeNull();
    });
  },
);

describe.skipIf(process.platform !== 'linux')('no keyring answering: the 0600 file, said once', () => {
  it('profile add falls back to the file with one warning on stderr that holds no key; later runs say nothing', async () => {
    const home = newHome();
    const added = await loanctl(home, ['profile', 'add', 'prod', '--base-url', server.url, '--api-key-stdin'], {
      input: KEY,
    });
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toBe('');
    const warnings = added.stderr.split('\n').filter((line) => line.includes('no OS keyring answered'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^loanctl: warning: no OS keyring answered \(.+\), so the API key is in .*config\.json \(mode 0600\)\. Pass --insecure-storage/,
    );
    expect(added.stderr).not.toContain(KEY);
    expect(profileOnDisk(home, 'prod')).toEqual({ baseUrl: server.url, apiKey: KEY });
    expect(statSync(join(home, 'config', 'config.json')).mode & 0o777).toBe(0o600);

    acceptOnly(KEY);
    const tested = await loanctl(home, ['profile', 'test', '-o', 'json']);
    expect(tested.exitCode).toBe(0);
    expect(JSON.parse(tested.stdout).key_storage).toBe('file');
    expect(tested.stderr).not.toContain('keyring');
    expect(server.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
  });

  it('--insecure-storage chooses the file on purpose: no warning', async () => {
    const home = newHome();
    const added = await loanctl(
      home,
      ['profile', 'add', 'prod', '--base-url', server.url, '--api-key-stdin', '--insecure-storage'],
      {
        input: KEY,
      },
    );
    expect(added.exitCode).toBe(0);
    expect(added.stderr).not.toContain('warning');
    expect(added.stderr).toContain('the API key is in that file');
    expect(profileOnDisk(home, 'prod').apiKey).toBe(KEY);
  });
});
