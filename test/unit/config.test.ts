import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBaseUrl, isLoopbackHost } from '../../src/config/base-url.js';
import { redactKey, resolveSettings } from '../../src/config/settings.js';
import { configDir, openProfileStore, writeProfile } from '../../src/config/store.js';
import { ExitCode, UsageError } from '../../src/errors.js';
import { resolveOutputSettings } from '../../src/output/settings.js';
import { fakeIo } from '../helpers/fake-io.js';

function tempDir() {
  return join(mkdtempSync(join(tmpdir(), 'loanctl-config-')), 'cfg');
}

function storeWith(env: Record<string, string>) {
  const dir = env.LOANCTL_CONFIG_DIR as string;
  writeProfile(
    'prod',
    { baseUrl: 'https://prod.example.com', apiKey: 'key-prod', productId: 12 },
    { env, makeCurrentIfNone: true },
  );
  writeProfile('staging', { baseUrl: 'https://staging.example.com', apiKey: 'key-staging', productId: 7 }, { env });
  return { dir, store: openProfileStore({ env }) };
}

describe('config directory', () => {
  it('is LOANCTL_CONFIG_DIR, else $XDG_CONFIG_HOME/loanctl, else ~/.config/loanctl', () => {
    expect(configDir({ LOANCTL_CONFIG_DIR: '/a', XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/a');
    expect(configDir({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/loanctl');
    expect(configDir({ XDG_CONFIG_HOME: 'relative/x', HOME: '/h' })).toBe('/h/.config/loanctl');
    expect(configDir({ HOME: '/h' })).toBe('/h/.config/loanctl');
  });
});

describe('profile store', () => {
  it('writes one file with mode 0600 in a 0700 directory; the first profile becomes current', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir() };
    const { current } = writeProfile(
      'sandbox',
      { baseUrl: 'http://127.0.0.1:4010/', apiKey: 'k1', productId: 1 },
      { env, makeCurrentIfNone: true },
    );
    expect(current).toBe(true);
    const path = join(env.LOANCTL_CONFIG_DIR, 'config.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(env.LOANCTL_CONFIG_DIR).mode & 0o777).toBe(0o700);
    const store = openProfileStore({ env });
    expect(store.current).toBe('sandbox');
    expect(store.get('sandbox')).toEqual({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'k1', productId: 1 });
    // A second profile does not take over as current unless asked.
    expect(
      writeProfile('prod', { baseUrl: 'https://p.example.com', apiKey: 'k2' }, { env, makeCurrentIfNone: true })
        .current,
    ).toBe(false);
  });

  it('tightens a looser mode found on read to 0600, with a warning', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir() };
    writeProfile('prod', { baseUrl: 'https://p.example.com', apiKey: 'k' }, { env });
    const path = join(env.LOANCTL_CONFIG_DIR, 'config.json');
    chmodSync(path, 0o644);
    const warnings: string[] = [];
    openProfileStore({ env, warn: (line) => warnings.push(line) });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('mode 0644');
    expect(warnings[0]).toContain('0600');
    const again: string[] = [];
    openProfileStore({ env, warn: (line) => again.push(line) });
    expect(again).toHaveLength(0);
  });

  it('tightens a config directory found 0755 to 0700, with a warning, on read and before the first write', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir() };
    mkdirSync(env.LOANCTL_CONFIG_DIR, { recursive: true, mode: 0o755 });
    chmodSync(env.LOANCTL_CONFIG_DIR, 0o755);
    const warnings: string[] = [];
    writeProfile('prod', { baseUrl: 'https://p.example.com', apiKey: 'k' }, { env, warn: (l) => warnings.push(l) });
    expect(statSync(env.LOANCTL_CONFIG_DIR).mode & 0o777).toBe(0o700);
    expect(warnings).toEqual([
      `${env.LOANCTL_CONFIG_DIR} was open to others (mode 0755) and holds API keys; its mode is now 0700.`,
    ]);

    chmodSync(env.LOANCTL_CONFIG_DIR, 0o755);
    const onRead: string[] = [];
    openProfileStore({ env, warn: (l) => onRead.push(l) });
    expect(statSync(env.LOANCTL_CONFIG_DIR).mode & 0o777).toBe(0o700);
    expect(onRead).toHaveLength(1);
    expect(onRead[0]).toContain('mode 0755');
  });

  it('says clearly when the file is not JSON (exit 2)', () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{not json', { mode: 0o600 });
    expect(() => openProfileStore({ env: { LOANCTL_CONFIG_DIR: dir } })).toThrow(/is not valid JSON/);
  });

  it('use and remove; an unknown name is exit 2 listing the profiles', () => {
    const { store } = storeWith({ LOANCTL_CONFIG_DIR: tempDir() });
    store.use('staging');
    expect(store.current).toBe('staging');
    expect(store.remove('staging')).toBe(true);
    expect(store.current).toBeUndefined();
    try {
      store.use('nope');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).hint).toContain('Profiles: prod');
    }
  });

  it('a change made through one opened store keeps what another process wrote since it was opened', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir() };
    const { store } = storeWith(env);
    // Another process adds a profile after this one read the file…
    writeProfile('qa', { baseUrl: 'https://qa.example.com', apiKey: 'key-qa' }, { env });
    // …and this one then writes: the file is re-read under the lock, so "qa" stays.
    store.set('dev', { baseUrl: 'https://dev.example.com', apiKey: 'key-dev' });
    expect(openProfileStore({ env }).names()).toEqual(['dev', 'prod', 'qa', 'staging']);
    store.remove('staging');
    expect(openProfileStore({ env }).names()).toEqual(['dev', 'prod', 'qa']);
  });

  it('takes over a lock left behind by a process that died mid-write, and leaves no lock behind', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir() };
    writeProfile('prod', { baseUrl: 'https://p.example.com', apiKey: 'k' }, { env });
    const lock = join(env.LOANCTL_CONFIG_DIR, 'config.json.lock');
    // A pid above the kernel's pid_max: surely no running process.
    writeFileSync(lock, `999999999@${hostname()} crashed`);
    writeProfile('qa', { baseUrl: 'https://qa.example.com', apiKey: 'k' }, { env });
    expect(openProfileStore({ env }).names()).toEqual(['prod', 'qa']);
    expect(existsSync(lock)).toBe(false);
  });

  it('refuses odd profile names', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir() };
    expect(() => writeProfile('../x', { baseUrl: 'https://a.example.com', apiKey: 'k' }, { env })).toThrow(
      /Invalid profile name/,
    );
  });
});

describe('base URL', () => {
  it('takes a base URL given with the version path as the API root, so no request goes to /api/v1/api/v1', () => {
    expect(checkBaseUrl('https://api.example.com/api/v1')).toBe('https://api.example.com');
    expect(checkBaseUrl('https://api.example.com/API/V1/')).toBe('https://api.example.com');
    expect(checkBaseUrl('https://api.example.com/lending/api/v1/')).toBe('https://api.example.com/lending');
    expect(checkBaseUrl('http://127.0.0.1:4010/api/v1/api/v1')).toBe('http://127.0.0.1:4010');
    expect(checkBaseUrl('https://api.example.com/api/v10')).toBe('https://api.example.com/api/v10');
  });

  it('accepts https anywhere and http only on loopback', () => {
    expect(checkBaseUrl('https://api.example.com/')).toBe('https://api.example.com');
    expect(checkBaseUrl('https://api.example.com/lending/')).toBe('https://api.example.com/lending');
    for (const url of ['http://localhost:4010', 'http://127.0.0.1:1', 'http://127.9.8.7', 'http://[::1]:4010']) {
      expect(() => checkBaseUrl(url)).not.toThrow();
    }
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });

  it('refuses plain http to another host, saying why and to use https', () => {
    for (const url of [
      'http://api.example.com',
      'http://10.0.0.5:8080',
      'http://127.0.0.1.nip.io',
      'http://evil.localhost',
    ]) {
      try {
        checkBaseUrl(url);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        expect((error as UsageError).exitCode).toBe(ExitCode.usage);
        expect((error as UsageError).message).toContain('unencrypted');
        expect((error as UsageError).hint).toMatch(/^Use https:\/\//);
      }
    }
    expect(() => checkBaseUrl('ftp://x.example.com')).toThrow(UsageError);
    expect(() => checkBaseUrl('not a url')).toThrow(UsageError);
  });
});

describe('settings precedence: flag > env > profile > default', () => {
  it('uses the current profile when nothing else is said', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir() };
    const { store } = storeWith(env);
    const s = resolveSettings({ globals: {}, env, store });
    expect(s.profile).toEqual({ name: 'prod', source: 'current' });
    expect([s.baseUrl, s.apiKey, s.productId]).toEqual(['https://prod.example.com', 'key-prod', 12]);
    expect(s.timeoutMs).toBe(30_000);
  });

  it('trims white space around LOANCTL_API_KEY (a key file with Windows line endings)', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir(), LOANCTL_API_KEY: ' sk_env_key\r\n' };
    const { store } = storeWith(env);
    expect(resolveSettings({ globals: {}, env, store }).apiKey).toBe('sk_env_key');
  });

  it('a profile whose key is in the keyring is read with no key; LOANCTL_API_KEY wins over it', () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const account = `prod@${join(dir, 'config.json')}`;
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        current: 'prod',
        profiles: { prod: { baseUrl: 'https://p.example.com', keyringAccount: account } },
      }),
      { mode: 0o600 },
    );
    const store = openProfileStore({ env: { LOANCTL_CONFIG_DIR: dir } });
    expect(store.get('prod')).toEqual({ baseUrl: 'https://p.example.com', keyringAccount: account });
    const fromKeyring = resolveSettings({ globals: {}, env: { LOANCTL_CONFIG_DIR: dir }, store });
    expect([fromKeyring.apiKey, fromKeyring.apiKeySource, fromKeyring.keyringAccount]).toEqual([
      undefined,
      'profile',
      account,
    ]);
    const env = { LOANCTL_CONFIG_DIR: dir, LOANCTL_API_KEY: 'key-env' };
    const fromEnv = resolveSettings({ globals: {}, env, store });
    expect([fromEnv.apiKey, fromEnv.apiKeySource, fromEnv.keyringAccount]).toEqual(['key-env', 'env', undefined]);
  });

  it('LOANCTL_PROFILE picks the profile; --profile beats it', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir(), LOANCTL_PROFILE: 'staging' };
    const { store } = storeWith(env);
    expect(resolveSettings({ globals: {}, env, store }).apiKey).toBe('key-staging');
    expect(resolveSettings({ globals: { profile: 'prod' }, env, store }).apiKey).toBe('key-prod');
    expect(() => resolveSettings({ globals: { profile: 'nope' }, env, store })).toThrow(/No profile named "nope"/);
  });

  it('environment beats the profile, and the --base-url flag beats the environment', () => {
    const env = {
      LOANCTL_CONFIG_DIR: tempDir(),
      LOANCTL_BASE_URL: 'https://env.example.com',
      LOANCTL_API_KEY: 'key-env',
      LOANCTL_PRODUCT_ID: '99',
    };
    const { store } = storeWith(env);
    const fromEnv = resolveSettings({ globals: {}, env, store });
    expect([fromEnv.baseUrl, fromEnv.apiKey, fromEnv.productId]).toEqual(['https://env.example.com', 'key-env', 99]);
    expect(fromEnv.apiKeySource).toBe('env');
    const fromFlag = resolveSettings({
      globals: { baseUrl: 'https://flag.example.com', timeout: '2.5' },
      env,
      store,
    });
    expect(fromFlag.baseUrl).toBe('https://flag.example.com');
    expect(fromFlag.baseUrlSource).toBe('flag');
    expect(fromFlag.timeoutMs).toBe(2_500);
  });

  it('checks values from the environment and flags (exit 2)', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir() };
    const { store } = storeWith(env);
    expect(() => resolveSettings({ globals: {}, env: { ...env, LOANCTL_PRODUCT_ID: 'abc' }, store })).toThrow(
      /LOANCTL_PRODUCT_ID/,
    );
    expect(() =>
      resolveSettings({ globals: {}, env: { ...env, LOANCTL_BASE_URL: 'http://evil.example.com' }, store }),
    ).toThrow(/LOANCTL_BASE_URL: plain http/);
    expect(() => resolveSettings({ globals: { timeout: '0' }, env, store })).toThrow(/--timeout/);
  });

  it('defaults the output to table on a TTY and json otherwise', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir() };
    const tty = fakeIo({ tty: true });
    expect(resolveOutputSettings({}, env, tty).output).toBe('table');
    expect(resolveOutputSettings({ output: 'csv' }, env, tty).output).toBe('csv');
    expect(resolveOutputSettings({}, env, fakeIo()).output).toBe('json');
  });
});

describe('redactKey', () => {
  it('shows at most the prefix and the last 4 characters', () => {
    expect(redactKey('sk_live_0123456789abcdef')).toBe('sk_live_…cdef');
    expect(redactKey('0123456789abcdefXYZW')).toBe('…XYZW');
    expect(redactKey('short-key')).toBe('********');
  });

  it('never keeps the file unreadable to its owner', () => {
    const env = { LOANCTL_CONFIG_DIR: tempDir() };
    writeProfile('a', { baseUrl: 'https://a.example.com', apiKey: 'k' }, { env });
    expect(JSON.parse(readFileSync(join(env.LOANCTL_CONFIG_DIR, 'config.json'), 'utf8')).profiles.a.apiKey).toBe('k');
  });
});
