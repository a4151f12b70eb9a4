/**
 * Field names are data too: a server may send a key holding escape sequences (an OSC that sets
 * the terminal's title, a C1 CSI). `--fields` takes its names from the contract, so a server's key
 * is never a valid name nor listed as one; wherever loanctl prints a name — a table's header, a
 * `--fields` error, a CSV header — its control characters are escaped, as the values' are
 * (nasty-strings.test.ts covers values). And values it would echo or show
 * changed: a cursor that is not a whole number, a number JSON.parse cannot keep. Against a real
 * scripted HTTP server.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createDeps } from '../../src/deps.js';
import { main } from '../../src/main.js';
import { render } from '../../src/output/render.js';
import { type FakeIo, fakeIo } from '../helpers/fake-io.js';
import { json, type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';
import { TERMINAL_CONTROL } from './helpers.js';

const TITLE = '\u001b]0;pwned\u0007title';
const CSI = '\u009b2Jwipe';
const SHOWN_TITLE = '\\x1b]0;pwned\\x07title';
const SHOWN_CSI = '\\x9b2Jwipe';

let server: ScriptedServer;
let io: FakeIo;

beforeEach(async () => {
  server = await scriptedServer();
});
afterEach(() => server.close());

function run(args: string[]) {
  io = fakeIo();
  const env = {
    LOANCTL_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'loanctl-names-')), 'cfg'),
    LOANCTL_BASE_URL: server.url,
    LOANCTL_API_KEY: 'sk_test_NAMES_1234',
    LOANCTL_PRODUCT_ID: '1',
  };
  return main(args, createDeps({ io, env, sleep: async () => {} }));
}

/** Every loan request list reply has one record carrying the two nasty keys. */
function serveNastyKeys(): void {
  const record = { id: 7, fullname: 'Ada Obi', amount: 5000, [TITLE]: 'a', [CSI]: 'b' };
  server.script((_req, res) =>
    json(res, 200, { status: 'success', message: 'ok', data: { loan_requests: [record], cursor: 7 } }),
  );
}

function printed(): string {
  return io.stdout.text() + io.stderr.text();
}

it("takes --fields names from the contract, not from a server's keys: nothing is sent, nothing is echoed", async () => {
  serveNastyKeys();
  expect(await run(['loan', 'list', '--fields', `id,${TITLE}`, '-o', 'json'])).toBe(2);
  expect(server.requests).toHaveLength(0);
  expect(io.stderr.text()).toContain(`unknown field "${SHOWN_TITLE}"; nothing was sent.`);
  expect(io.stderr.text()).toContain('Valid fields: id, fullname, amount, ');
  expect(printed()).not.toMatch(TERMINAL_CONTROL);
});

it('escapes a --fields name in the error that says it is unknown', async () => {
  serveNastyKeys();
  expect(await run(['loan', 'list', '--fields', `id,\u001b[2Jx`, '-o', 'table'])).toBe(2);
  expect(io.stderr.text()).toContain('"\\x1b[2Jx"');
  expect(printed()).not.toMatch(TERMINAL_CONTROL);
});

// A header made from a record's own keys (data without a column set, e.g. `profile test`'s).
const nasty = { id: 7, [TITLE]: 'a', [CSI]: 'b' };

it("escapes a record's keys in a table header", async () => {
  io = fakeIo();
  await render([nasty], { format: 'table' }, { io, env: {}, globals: {} });
  // Headers are upper case; the escapes keep their lower-case hex.
  expect(io.stdout.text()).toContain('\\x1b]0;PWNED\\x07TITLE');
  expect(printed()).not.toMatch(TERMINAL_CONTROL);
});

it("escapes a record's keys in a CSV header, keeping the values as sent", async () => {
  io = fakeIo();
  await render([nasty], { format: 'csv', fields: ['id', TITLE, CSI] }, { io, env: {}, globals: {} });
  expect(io.stdout.text()).toBe(`id,${SHOWN_TITLE},${SHOWN_CSI}\n7,a,b\n`);
});

it('escapes a progress marker printed in a table', async () => {
  server.script((_req, res) => json(res, 200, { status: 'success', message: 'ok', data: `sub${TITLE}` }));
  expect(await run(['loan', 'progress', '7', '-o', 'table'])).toBe(0);
  expect(io.stdout.text()).toBe(`sub${SHOWN_TITLE}\n`);
});

it.each([
  ['text with an escape sequence', `"${'\\u001b'}]0;x${'\\u0007'}"`],
  ['a fraction', '1.5'],
])('never echoes a reply cursor that is %s into a next: hint or a request', async (_what, cursor) => {
  const reply = `{"status":"success","message":"ok","data":{"loan_requests":[{"id":7,"amount":5}],"cursor":${cursor}}}`;
  server.script((_req, res) => json(res, 200, reply));
  expect(await run(['loan', 'list', '-o', 'json'])).toBe(0);
  expect(io.stderr.text()).toBe(
    "warning: the reply's cursor is not a whole number, so the next page cannot be asked for.\n",
  );
  expect(server.requests).toHaveLength(1);
  expect(await run(['loan', 'list', '--all', '-o', 'ndjson'])).toBe(0);
  expect(io.stdout.text()).toBe('{"id":7,"amount":5}\n');
  expect(server.requests).toHaveLength(2);
  expect(printed()).not.toMatch(TERMINAL_CONTROL);
});

it.each(['1e999', '99999999999999999999'])(
  'refuses a reply holding %s, which it could show only as null or rounded (exit 5)',
  async (id) => {
    const reply = `{"status":"success","message":"ok","data":{"loan_requests":[{"id":${id},"amount":5}],"cursor":0}}`;
    server.script((_req, res) => json(res, 200, reply));
    expect(await run(['loan', 'list', '-o', 'json'])).toBe(5);
    expect(io.stdout.text()).toBe('');
    expect(io.stderr.text()).toContain(
      `with JSON holding a number loanctl cannot show exactly (${id}), not the API's JSON`,
    );
  },
);
