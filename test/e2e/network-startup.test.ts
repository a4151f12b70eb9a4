import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borrower } from '../helpers/cli.js';
import { loadedBy as probe } from '../helpers/module-probe.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';

/** The built CLI, configured for the test's sandbox, with the module probe. */
const loadedBy = (args: string[], input = '') => probe(args, sandbox.env as Record<string, string>, input);

let sandbox: CliSandbox;
beforeAll(async () => {
  sandbox = await cliSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

describe('network command start-up', () => {
  it("user exists answers over node:http without a schema, zod's schema API, undici or TLS", async () => {
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
    expect(loaded.sources).toContain('src/contract/query-check.ts');
    for (const schemas of ['requests', 'field-schemas', 'schemas', 'endpoints']) {
      expect(loaded.sources).not.toContain(`src/contract/${schemas}.ts`);
    }
    // zod's e-mail pattern comes from its core's `regexes`, which the bundle shares with the body
    // schemas' chunk (the core's modules load with it); zod's schema API does not load.
    expect([...loaded.packageFiles]).toContain('zod/v4/core/regexes.js');
    expect([...loaded.packageFiles].filter((file) => file.startsWith('zod/v4/classic/'))).toEqual([]);
    expect(loaded.packages).not.toContain('undici');
    // The proxy library of older Nodes loads only when a proxy applies (src/http/transport.ts).
    expect(loaded.packages).not.toContain('https-proxy-agent');
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
    expect(loaded.sources).toContain('src/contract/field-schemas.ts');
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
