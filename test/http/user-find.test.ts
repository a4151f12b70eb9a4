/**
 * `user find --phone` against a server on 127.0.0.1: it finds a borrower whose phone the server
 * wrote with escapes, never prints the key a server echoes, and holds every page to the same checks
 * as any other reply.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/deps.js';
import { main } from '../../src/main.js';
import { fakeIo } from '../helpers/fake-io.js';
import { json, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk_test_SKIMFIND_1234';
const user = (id: number, phone: string) => ({
  id,
  org_id: 1,
  firstname: 'Borrower',
  lastname: `Number ${id}`,
  email: `b${id}@skim.example`,
  phone,
  gender: 'female',
});
const page = (users: unknown[]) => JSON.stringify({ status: 'success', message: 'ok', data: users });
describe('user find --phone against a server on 127.0.0.1', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await scriptedServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('finds a borrower whose phone the server escaped, and prints no echoed key', async () => {
    const escaped = '+234\\u0038\\u0030\\u0039\\u0039\\u0039\\u0039\\u0039\\u0039\\u0039\\u0039';
    server.script((req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('pages'));
      const plain = Array.from({ length: 50 }, (_, i) => user((n - 1) * 50 + i + 1, '+2348012345678'));
      if (n === 1 || n === 3) return json(res, 200, page(plain));
      if (n === 2) {
        const text = page([...plain.slice(0, 49), { ...user(100, 'PHONE'), firstname: `echo ${KEY}` }]);
        return json(res, 200, text.replace('"PHONE"', `"${escaped}"`));
      }
      return json(res, 200, page([]));
    });
    const io = fakeIo({});
    const env = {
      LOANCTL_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'loanctl-skim-')), 'cfg'),
      LOANCTL_BASE_URL: server.url,
      LOANCTL_API_KEY: KEY,
    };
    const code = await main(['user', 'find', '--phone', '08099999999', '-o', 'ndjson'], createDeps({ io, env }));
    expect(code, io.stderr.text()).toBe(0);
    const found = io.stdout
      .text()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(found.map((row: { id: number }) => row.id)).toEqual([100]);
    expect(found[0].phone).toBe('+2348099999999');
    expect(io.stdout.text() + io.stderr.text()).not.toContain(KEY);
    expect(io.stderr.text()).toContain('Scanned 150 new users (150 in the index); 1 matched.');
  });

  it('goes past a borrower with no phone, where it used to stop with an internal error', async () => {
    server.script((req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('pages'));
      if (n === 1) return json(res, 200, page([{ ...user(1, ''), phone: null }, user(2, '0809 999 9999')]));
      return json(res, 200, page([]));
    });
    const { code, io } = await findPhone(server);
    expect(code, io.stderr.text()).toBe(0);
    expect(io.stdout.text()).toContain('"id":2');
    expect(io.stderr.text()).toBe('Scanned 2 new users (2 in the index); 1 matched.\n');
  });

  it("refuses a page without the envelope's message, as every other reply, where it used to end the walk quietly", async () => {
    server.script((req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('pages'));
      if (n === 1) return json(res, 200, page([user(1, '+2348012345678')]));
      return json(res, 200, '{"status":"success","data":[]}');
    });
    const { code, io } = await findPhone(server);
    expect(code).toBe(5);
    expect(io.stderr.text()).toContain('not the API envelope (status, message)');
  });

  it('refuses a page labelled as an HTML page, even when its body is a plain page', async () => {
    server.script((req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('pages'));
      const headers: Record<string, string> = n === 2 ? { 'content-type': 'text/html; charset=utf-8' } : {};
      return json(res, 200, page(n <= 2 ? [user(n, '+2348012345678')] : []), headers);
    });
    const { code, io } = await findPhone(server);
    expect(code).toBe(5);
    expect(io.stderr.text()).toContain('an HTML page');
  });

  it('under --debug the contract check of each reply has whole users to check', async () => {
    const full = (id: number) => ({
      ...user(id, '+2348012345678'),
      created_at: '2026-11-25T19:40:00.000Z',
      updated_at: '2026-11-25T19:40:00.000Z',
    });
    server.script((req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('pages'));
      return json(res, 200, page(n <= 2 ? [full(2 * n - 1), full(2 * n)] : []));
    });
    const { code, io } = await findPhone(server, ['--debug']);
    expect(code, io.stderr.text()).toBe(0);
    expect(io.stderr.text()).toContain('Scanned 4 new users (4 in the index); 0 matched.');
    expect(io.stderr.text()).not.toContain('does not match the contract');
  });
});

describe('a server whose user list carries references', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await scriptedServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('user find remembers the references it prints, and user show REFERENCE answers from them', async () => {
    server.script((req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('pages'));
      const users = [{ ...user(1, '+2348099999999'), reference: 'USR-LISTED-1' }, user(2, '+2348012345678')];
      return json(res, 200, page(n === 1 ? users : []));
    });
    const env = {
      LOANCTL_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'loanctl-listed-')), 'cfg'),
      LOANCTL_BASE_URL: server.url,
      LOANCTL_API_KEY: KEY,
    };
    const found = fakeIo({});
    expect(await main(['user', 'find', '--phone', '08099999999', '-o', 'ndjson'], createDeps({ io: found, env }))).toBe(
      0,
    );
    const shown = fakeIo({});
    const code = await main(['user', 'show', 'usr-listed-1', '-o', 'json'], createDeps({ io: shown, env }));
    expect(code, shown.stderr.text()).toBe(0);
    expect(JSON.parse(shown.stdout.text()).id).toBe(1);
  });
});

async function findPhone(server: ScriptedServer, flags: string[] = []) {
  const io = fakeIo({});
  const env = {
    LOANCTL_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'loanctl-skim-')), 'cfg'),
    LOANCTL_BASE_URL: server.url,
    LOANCTL_API_KEY: KEY,
  };
  const code = await main(
    ['user', 'find', '--phone', '08099999999', '-o', 'ndjson', ...flags],
    createDeps({ io, env }),
  );
  return { code, io };
}
