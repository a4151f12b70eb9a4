/**
 * Attacks on the sandbox's request log and stored secrets, by class: the request log records every request that reached the sandbox (a row it cannot build
 * becomes a placeholder, never a lost batch; a client that gave up is logged as gone), no text
 * it stores or answers quotes a malformed body, and no form of a key reaches it.
 */
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Captured } from '../../src/sandbox/log/entry.js';
import { type LogRow, logPathFor, openLogForWriting } from '../../src/sandbox/log/store.js';
import { RequestLogWriter } from '../../src/sandbox/log/writer.js';
import { borrower } from '../helpers/cli.js';
import { cliSandbox, runCli } from '../helpers/run-cli.js';
import { call, openSandbox, type TestSandbox, tempDir, userBody } from '../helpers/sandbox.js';

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await openSandbox({ observe: { requestLog: { flushMs: 0 } } });
});
afterAll(async () => {
  await sandbox.close();
});

/** The rows of the sandbox's request log after `afterId`, oldest first. */
function logRows(dataDir = sandbox.dataDir, afterId = 0): LogRow[] {
  const db = new DatabaseSync(logPathFor(dataDir), { readOnly: true });
  try {
    return db.prepare('SELECT * FROM request_log WHERE id > ? ORDER BY id').all(afterId) as unknown as LogRow[];
  } finally {
    db.close();
  }
}

/** The rows logged while `send` ran. */
async function loggedBy(send: () => Promise<unknown>): Promise<LogRow[]> {
  const db = new DatabaseSync(logPathFor(sandbox.dataDir), { readOnly: true });
  const { last } = db.prepare('SELECT coalesce(max(id), 0) AS last FROM request_log').get() as { last: number };
  db.close();
  await send();
  return logRows(sandbox.dataDir, last);
}

/** Every piece of `length` characters of `text`. */
function pieces(text: string, length: number): string[] {
  const all: string[] = [];
  for (let at = 0; at + length <= text.length; at++) all.push(text.slice(at, at + length));
  return all;
}

describe('a malformed JSON body is never quoted', () => {
  const PASSWORD = 'Tr0ub4dor&3xyz';
  const MALFORMED = [
    `{"password": ${PASSWORD}}`,
    `{"firstname":"Ada","password":"${PASSWORD}" "x":1}`,
    `{"password":"${PASSWORD}`,
    `["${PASSWORD}",]`,
    `{"password":"${PASSWORD}"}}`,
    `{"password":"${PASSWORD.slice(0, 7)}\t${PASSWORD.slice(7)}"}`,
  ];

  it.each(MALFORMED)('%s: the reply and the log name where, never what', async (body) => {
    let reply = '';
    const rows = await loggedBy(async () => {
      const response = await sandbox.app.inject({
        method: 'POST',
        url: '/api/v1/user',
        headers: { authorization: `Bearer ${sandbox.org.api_key}`, 'content-type': 'application/json' },
        payload: body,
      });
      reply = response.body;
      expect(response.statusCode).toBe(400);
    });
    expect(rows).toHaveLength(1);
    const logged = JSON.stringify(rows[0]);
    const fragments = pieces(PASSWORD, 3).filter((piece) => reply.includes(piece) || logged.includes(piece));
    expect(fragments).toEqual([]);
    expect(JSON.parse(reply).message).toMatch(/^The request body is not valid JSON/);
  });
});

describe('every request is recorded; a row that cannot be built is a placeholder, never a lost batch', () => {
  /**
   * JSON nested 50,000 deep (100 KB): the attack's body was 5,000 deep, enough to overflow
   * JSON.stringify at Node's default stack; ten times as deep overflows it at any stack size.
   */
  const DEEP = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;

  it('200 writes around one request nested 50,000 deep leave 201 entries, the nested one marked', async () => {
    const dataDir = tempDir();
    // One batch for the whole run: committed only when the sandbox closes.
    const batched = await openSandbox({ dataDir, observe: { requestLog: { flushMs: 60_000 } } });
    const write = (n: number) =>
      call(batched.app, 'createUser', { key: batched.org.api_key, body: userBody({ firstname: `Batch${n}` }) });
    try {
      for (let n = 0; n < 100; n++) expect((await write(n)).json.status).toBe('success');
      const deep = await batched.app.inject({
        method: 'POST',
        url: '/api/v1/user',
        headers: { 'content-type': 'application/json' },
        payload: DEEP,
      });
      expect(deep.statusCode).toBe(401);
      for (let n = 100; n < 200; n++) expect((await write(n)).json.status).toBe('success');
    } finally {
      await batched.app.close();
    }
    const rows = logRows(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    expect(rows).toHaveLength(201);
    expect(rows.filter((row) => row.status === 'success')).toHaveLength(200);
    expect(rows[100]).toMatchObject({
      method: 'POST',
      path: '/api/v1/user',
      http: 401,
      request_body: null,
      why: expect.stringMatching(/^this entry could not be built \(RangeError\)/),
    });
  });
});

describe('a row SQLite refuses', () => {
  it('is written as its placeholder; the rows of its batch stay', () => {
    const dataDir = tempDir();
    const errors: unknown[] = [];
    const writer = new RequestLogWriter(openLogForWriting(logPathFor(dataDir)), {
      maxRows: 1_000,
      flushMs: 60_000,
      onError: (error) => errors.push(error),
    });
    const entry = (http: number): Captured => ({
      at: Date.now(),
      method: 'GET',
      url: '/api/v1/user?pages=1',
      http,
      ms: 1,
      orgId: 1,
      faultId: undefined,
      params: {},
      requestBody: undefined,
      replyText: '{"status":"success","message":"ok","data":[]}',
      authorization: undefined,
      ended: 'answered',
    });
    writer.push(entry(200));
    // NaN is bound as NULL, which the NOT NULL http column refuses.
    writer.push(entry(Number.NaN));
    writer.push(entry(200));
    writer.close();
    const rows = logRows(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    expect(errors).toEqual([]);
    expect(rows.map((row) => [row.http, row.why?.split(' (')[0] ?? null])).toEqual([
      [200, null],
      [0, 'this entry could not be built'],
      [200, null],
    ]);
  });
});

describe('a request whose client gave up', () => {
  it('is logged as "client gone", once for each time the fault fired; the write it carried went on', async () => {
    const gone = await cliSandbox({ observe: { requestLog: { flushMs: 0 } } });
    const email = 'gone.before.the.reply@example.com';
    try {
      const added = await gone.run(
        ['sandbox', 'faults', 'add', '--data-dir', gone.dataDir, '--path', '/api/v1/user', '--latency', '3s'],
        {},
      );
      expect(added.exitCode, added.stderr).toBe(0);
      const created = await gone.run(
        ['user', 'create', ...borrower(email, '+2348012345678'), '--password-stdin', '--timeout', '1'],
        { stdin: 'S3cret-pass!\n', sleep: async () => {} },
      );
      expect(created.exitCode).not.toBe(0);
      // The write waited out the fault's latency and was then done, though no one heard the reply.
      const users = () => {
        const db = new DatabaseSync(gone.dbPath, { readOnly: true });
        try {
          return (db.prepare('SELECT count(*) AS n FROM users WHERE email = ?').get(email) as { n: number }).n;
        } finally {
          db.close();
        }
      };
      await expect.poll(users, { timeout: 20_000 }).toBe(1);

      const listed = await gone.run(['sandbox', 'faults', 'list', '--data-dir', gone.dataDir, '-o', 'json'], {});
      const [fault] = listed.json<Array<{ id: number; fired: number }>>();
      const goneRows = logRows(gone.dataDir).filter((row) => row.ended === 'client gone');
      expect(goneRows).toHaveLength(fault?.fired ?? -1);
      expect(goneRows[0]).toMatchObject({
        method: 'POST',
        path: '/api/v1/user',
        http: 499,
        why: `client gone before the reply, while fault #${fault?.id} (loanctl sandbox faults list) delayed it`,
      });
      expect(goneRows[0]?.request_body).toContain('"password":"***"');
    } finally {
      await gone.close();
    }
  });
});

describe('a request log written before `ended` was recorded', () => {
  it('gains the column, its entries "answered", and takes new ones', async () => {
    const dataDir = tempDir();
    const old = new DatabaseSync(logPathFor(dataDir));
    old.exec(`CREATE TABLE request_log (
      id INTEGER PRIMARY KEY, time TEXT NOT NULL, org_id INTEGER, method TEXT NOT NULL, path TEXT NOT NULL,
      query TEXT NOT NULL, http INTEGER NOT NULL, status TEXT, ms REAL NOT NULL, why TEXT,
      request_body TEXT, reply_body TEXT)`);
    old.exec(
      `INSERT INTO request_log (time, method, path, query, http, ms) VALUES ('2026-01-01T00:00:00.000Z', 'GET', '/old', '', 200, 1)`,
    );
    old.close();
    const reopened = await openSandbox({ dataDir, observe: { requestLog: { flushMs: 0 } } });
    await call(reopened.app, 'listUsers', { key: reopened.org.api_key });
    await reopened.close();
    const rows = logRows(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    expect(rows.map((row) => [row.path, row.ended])).toEqual([
      ['/old', 'answered'],
      ['/api/v1/user', 'answered'],
    ]);
  });
});

describe('no form of a key reaches the log', () => {
  const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');
  const b64 = (text: string) => Buffer.from(text).toString('base64');

  /** The forms a key is sent in: those the CLI hides in replies, and escapes on escapes. */
  function forms(key: string): Record<string, string> {
    return {
      plain: key,
      jsonEveryCharacter: [...key].map((c) => `\\u${hex(c, 4)}`).join(''),
      url: encodeURIComponent(key),
      urlEveryCharacter: [...key].map((c) => `%${hex(c, 2).toUpperCase()}`).join(''),
      htmlHex: [...key].map((c) => `&#x${hex(c, 2)};`).join(''),
      htmlDecimal: [...key].map((c) => `&#${c.charCodeAt(0)};`).join(''),
      base64Key: b64(key),
      base64Bearer: b64(`Bearer ${key}`),
      base64Basic: b64(`api:${key}`),
      base64urlBearer: Buffer.from(`Bearer ${key}`).toString('base64url'),
      urlOfHtml: encodeURIComponent([...key].map((c) => `&#x${hex(c, 2)};`).join('')),
      urlOfUrl: encodeURIComponent([...key].map((c) => `%${hex(c, 2)}`).join('')),
    };
  }

  /** Every form as sent and as a URL carries it, and every 7-character piece of the key's secret part. */
  function needles(key: string): string[] {
    const secret = key.replace(/^sk_(sandbox|live)_/, '');
    const sent = Object.values(forms(key));
    const runs = sent.flatMap((form) => (form.length > 24 ? [form.slice(4, 20), form.slice(-20, -4)] : []));
    return [...new Set([...sent, ...sent.map(encodeURIComponent), ...runs, ...pieces(secret, 7)])];
  }

  /**
   * Where a request may carry a text: a path id (refused no-access: the reason names the id), a
   * query value and name, a body value and field name.
   */
  const PLACES: Record<string, (form: string) => { url: string; body?: unknown }> = {
    pathId: (form) => ({
      url: `/api/v1/user/${encodeURIComponent(form)}/loan_request?product-id=${sandbox.org.product_id}`,
      body: { amount: 5000, purpose: 'stock for the shop' },
    }),
    query: (form) => ({ url: `/api/v1/user?pages=1&note=${encodeURIComponent(form)}&${encodeURIComponent(form)}=1` }),
    body: (form) => ({ url: '/api/v1/user', body: { ...userBody({ firstname: form }), [form]: 'x' } }),
  };

  const WRONG = `sk_sandbox_${'Wr0ngKeyOfN0Organisation'.padEnd(32, 'q')}`;
  const FOREIGN = 'sk_live_ENC/CANARY+7c1d9e4b2a=Zq5W';

  /** Who sends, and which key rides in the request: the caller's own, another organisation's, a wrong one. */
  function cases(): Array<{ name: string; authorization: string; secret: string }> {
    const own = sandbox.org.api_key;
    return [
      { name: 'own key', authorization: `Bearer ${own}`, secret: own },
      { name: 'own key without Bearer', authorization: own, secret: own },
      { name: 'own key as a Basic password', authorization: `Basic ${b64(`api:${own}`)}`, secret: own },
      { name: "another organisation's key", authorization: `Bearer ${own}`, secret: other.api_key },
      { name: 'a wrong sandbox key', authorization: `Bearer ${WRONG}`, secret: WRONG },
      { name: "another service's key", authorization: `Bearer ${FOREIGN}`, secret: FOREIGN },
      { name: "another service's key without Bearer", authorization: FOREIGN, secret: FOREIGN },
    ];
  }

  let other: { api_key: string };
  beforeAll(() => {
    other = sandbox.addOrg('Other Lender');
  });

  async function send(authorization: string, url: string, body?: unknown) {
    const method = body === undefined ? 'GET' : 'POST';
    return sandbox.app.inject({
      method,
      url,
      headers: { authorization },
      ...(body !== undefined && { payload: body as object }),
    });
  }

  /** What the log holds of `rows`, each text field. */
  const logged = (rows: LogRow[]) =>
    rows
      .flatMap((row) => [row.path, row.query, row.why ?? '', row.request_body ?? '', row.reply_body ?? ''])
      .join('\n');

  it('in any form, any place, sent by anyone: every log text is free of it', async () => {
    const leaks: string[] = [];
    for (const { name, authorization, secret } of cases()) {
      for (const [place, build] of Object.entries(PLACES)) {
        for (const [formName, form] of Object.entries(forms(secret))) {
          const { url, body } = build(form);
          const rows = await loggedBy(() => send(authorization, url, body));
          const text = logged(rows);
          if (rows.length !== 1) leaks.push(`${name} / ${place} / ${formName}: ${rows.length} entries`);
          const found = needles(secret).filter((needle) => text.includes(needle));
          if (found.length > 0) leaks.push(`${name} / ${place} / ${formName}: ${found.slice(0, 3).join(' ')}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    // The path's id reached the check that names it.
    const notAnId = PLACES.pathId?.('12345x');
    const refused = await loggedBy(() => send(`Bearer ${sandbox.org.api_key}`, notAnId?.url ?? '', notAnId?.body));
    expect(refused[0]?.why).toBe('no access to user (not an id)');
  }, 180_000);

  it('split across the path, the query and body fields: no 7 characters of it together', async () => {
    for (const { name, authorization, secret } of cases().filter((c) => c.secret !== other.api_key)) {
      const cuts = [0, 12, 21, 30, secret.length];
      const [a, b, c, d] = cuts.slice(1).map((end, n) => secret.slice(cuts[n], end));
      const rows = await loggedBy(() =>
        send(
          authorization,
          `/api/v1/user/${encodeURIComponent(a ?? '')}/loan_request?x=${encodeURIComponent(b ?? '')}`,
          {
            amount: 5000,
            purpose: c,
            note: d,
          },
        ),
      );
      const text = logged(rows);
      expect(
        pieces(secret.replace(/^sk_(sandbox|live)_/, ''), 7).filter((piece) => text.includes(piece)),
        name,
      ).toEqual([]);
    }
  });

  it('hides nothing but keys: a short Basic user name leaves the path as it is', async () => {
    const rows = await loggedBy(() => send(`Basic ${b64('user:pass')}`, '/api/v1/user?pages=1'));
    expect(rows.map((row) => [row.path, row.query, row.why])).toEqual([['/api/v1/user', 'pages=1', 'bad API key']]);
  });

  it('loanctl sandbox logs prints none of it', async () => {
    const result = await runCli(['sandbox', 'logs', '--data-dir', sandbox.dataDir, '-o', 'json', '--limit', '100000']);
    expect(result.exitCode, result.stderr).toBe(0);
    const secrets = cases().map((c) => c.secret);
    expect(secrets.flatMap(needles).filter((needle) => result.stdout.includes(needle))).toEqual([]);
  });
});
