/**
 * A started sandbox answers only to its own names: a request whose Host is
 * not loopback, the address served or an `--allow-host` name (what a DNS-rebinding page sends)
 * gets a 421 envelope and nothing else; `sandbox start --host` on a non-loopback address warns
 * that it serves the network in clear. Traffic goes to 127.0.0.1 only.
 */
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSandboxStart } from '../../src/commands/sandbox/start.js';
import { createDeps } from '../../src/deps.js';
import { type RunningSandbox, startSandboxServer } from '../../src/sandbox/server.js';
import { fakeIo } from '../helpers/fake-io.js';
import { isolatedCliEnv, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/sandbox.js';

/** GET `path` on 127.0.0.1:`port` with the Host header `host`; status and body. */
function get(port: number, path: string, host: string, key?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, headers: { host, ...(key && { authorization: `Bearer ${key}` }) } },
      (reply) => {
        let body = '';
        reply.setEncoding('utf8');
        reply.on('data', (chunk) => {
          body += chunk;
        });
        reply.on('end', () => resolve({ status: reply.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('the Host check', () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startSandboxServer({
      dataDir: tempDir(),
      host: '127.0.0.1',
      port: 0,
      allowHosts: ['sandbox.internal'],
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const users = (host: string) => get(sandbox.port, '/api/v1/user', host, sandbox.demo.api_key);

  it('answers loopback names and addresses on its port, and the allowed name', async () => {
    const port = sandbox.port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      `sandbox.internal:${port}`,
      `Sandbox.Internal:${port}`,
    ]) {
      const reply = await users(host);
      expect(reply.status, host).toBe(200);
      expect(JSON.parse(reply.body).status, host).toBe('success');
    }
  });

  it('refuses any other name, another port, or a Host that is not one, with the 421 envelope', async () => {
    const port = sandbox.port;
    for (const host of [
      `rebind.attacker.example:${port}`,
      'localhost:1',
      `localhost:${port}.evil.example`,
      'sandbox.internal',
      `a@localhost:${port}`,
      'localhost:abc',
    ]) {
      for (const path of ['/api/v1/user', '/dashboard/sign-in', '/openapi.json', '/nowhere']) {
        const reply = await get(port, path, host, sandbox.demo.api_key);
        expect(reply.status, `${host} ${path}`).toBe(421);
        expect(JSON.parse(reply.body)).toEqual({
          status: 'error',
          message: expect.stringMatching(/does not answer to the host .*--allow-host/),
        });
      }
    }
  });
});

describe('sandbox start --host and --allow-host', () => {
  it('warns before serving a non-loopback address; its own addresses pass the Host check, others do not', async () => {
    const io = fakeIo();
    const stop = new AbortController();
    const options = {
      host: '0.0.0.0',
      port: '0',
      dataDir: tempDir(),
      json: true,
      profile: false,
      stopSignal: stop.signal,
    };
    const running = runSandboxStart(options, createDeps({ io, env: isolatedCliEnv() }));
    for (let i = 0; i < 400 && !io.stdout.text().includes('\n'); i++) await new Promise((r) => setTimeout(r, 50));
    try {
      expect(io.stderr.text()).toMatch(
        /^Warning: --host 0\.0\.0\.0 serves the sandbox to the network over plain HTTP.*API key unencrypted/,
      );
      const { url, api_key } = JSON.parse(io.stdout.text()) as { url: string; api_key: string };
      const port = Number(new URL(url).port);
      const own = Object.values(networkInterfaces())
        .flatMap((addresses) => addresses ?? [])
        .filter((address) => address.family === 'IPv4')
        .map((address) => address.address);
      for (const address of own)
        expect((await get(port, '/api/v1/user', `${address}:${port}`, api_key)).status, address).toBe(200);
      expect((await get(port, '/api/v1/user', `rebind.attacker.example:${port}`, api_key)).status).toBe(421);
    } finally {
      stop.abort();
      await running;
    }
  });

  it('does not warn on loopback', async () => {
    // A data dir that cannot be made ends the start before it listens, after the warning would be.
    const result = await runCli(['sandbox', 'start', '--host', 'localhost', '--data-dir', '/proc/loanctl-none']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).not.toMatch(/Warning/);
  });

  for (const name of ['http://sandbox.internal', 'sandbox.internal:4010', 'two words', '']) {
    it(`refuses --allow-host "${name}" before listening, exit 2`, async () => {
      const result = await runCli(['sandbox', 'start', '--allow-host', name, '--port', '0', '--data-dir', tempDir()]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('is not a host name or address');
    });
  }
});
