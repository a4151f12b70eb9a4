/**
 * Several `loanctl` processes writing the config file at once (the lock is between processes, so
 * a process is the point), and what the built bin loads before any command runs. The built bin
 * run by Node 24 through execa, with a temporary LOANCTL_CONFIG_DIR. (`npm test` builds first.)
 * The profile verbs themselves are tested in-process in ./profile.test.ts.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProcess } from '../helpers/sandbox-process.js';

const BIN = fileURLToPath(new URL('../../bin/loanctl.js', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/loanctl.mjs', import.meta.url));

function loanctl(args: string[], options: { dir: string; input?: string; env?: Record<string, string> }) {
  return execa(process.execPath, [BIN, ...args], {
    input: options.input ?? '',
    reject: false,
    // Only stops a run that hangs (a config dir under /proc once did) from outliving its test.
    timeout: 25_000,
    extendEnv: false,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: options.dir,
      LOANCTL_CONFIG_DIR: join(options.dir, 'config'),
      ...options.env,
    },
  });
}

const homes: string[] = [];
function newHome() {
  const home = mkdtempSync(join(tmpdir(), 'loanctl-e2e-profile-'));
  homes.push(home);
  return home;
}
afterAll(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

beforeAll(() => {
  if (!existsSync(DIST)) throw new Error('dist/loanctl.mjs is missing: run `npm run build` (npm test does it) first');
});

describe('several loanctl processes writing profiles at once', () => {
  const NAMES = Array.from({ length: 12 }, (_, i) => `p${i + 1}`);
  const addAll = (dir: string) =>
    Promise.all(
      NAMES.map((name) =>
        loanctl(['profile', 'add', name, '--base-url', `https://${name}.example.com`, '--api-key-stdin'], {
          dir,
          input: `key-of-${name}-0123456789`,
        }),
      ),
    );
  const savedProfiles = (dir: string) =>
    JSON.parse(readFileSync(join(dir, 'config', 'config.json'), 'utf8')).profiles as Record<
      string,
      { baseUrl: string; apiKey: string }
    >;

  it('twelve `profile add` started together all survive, each with its own key; no temp or lock file is left', async () => {
    const dir = newHome();
    const results = await addAll(dir);
    for (const result of results) {
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toContain('Added profile');
    }
    const profiles = savedProfiles(dir);
    expect(Object.keys(profiles).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) expect(profiles[name]?.apiKey).toBe(`key-of-${name}-0123456789`);
    expect(statSync(join(dir, 'config', 'config.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'config'))).toEqual(['config.json']);
  });

  it('a `sandbox start` writing its profile while twelve `profile add` run keeps all thirteen', async () => {
    const dir = newHome();
    const dataDir = join(dir, 'data');
    const env = { PATH: process.env.PATH ?? '', HOME: dir, LOANCTL_CONFIG_DIR: join(dir, 'config') };
    const [sandbox, results] = await Promise.all([startSandboxProcess(dataDir, env), addAll(dir)]);
    try {
      for (const result of results) expect(result.exitCode, result.stderr).toBe(0);
      const profiles = savedProfiles(dir);
      expect(Object.keys(profiles).sort()).toEqual([...NAMES, 'sandbox'].sort());
      expect(profiles.sandbox).toMatchObject({ baseUrl: sandbox.line.url, apiKey: sandbox.line.api_key });
    } finally {
      sandbox.process.kill('SIGTERM');
      await sandbox.process;
    }
  });
});

describe('start-up cost', () => {
  it('the modules loaded before any command runs hold no HTTP stack, table, prompt, zod or Fastify', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      // Static imports only (`import … from"./x.js"`, `import"./x.js"`); `import("…")` is lazy.
      for (const match of text.matchAll(/import(?:[^;"'()]*?from)?\s*"(\.[^"]+)"/g)) {
        visit(fileURLToPath(new URL(match[1] as string, `file://${file}`)));
      }
    };
    visit(DIST);
    const startup = [...seen].map((file) => readFileSync(file, 'utf8')).join('\n');
    expect(seen.size).toBeGreaterThan(1);
    for (const [module, marker] of [
      ['undici', 'UND_ERR_'],
      ['cli-table3', 'colWidths'],
      ['@inquirer/prompts', 'User force closed the prompt'],
      ['zod', 'ZodError'],
      ['fastify', 'FST_ERR_'],
      ['@napi-rs/keyring', '@napi-rs/keyring'],
    ]) {
      expect(startup.includes(marker as string), `${module} is on the start-up path`).toBe(false);
    }
  });
});
