/**
 * Issue #22 (an attack on the sandbox's request log and stored secrets) and issue #25 item 2, by
 * class: the request log records every request that reached the sandbox (a row it cannot build
 * becomes a placeholder, never a lost batch; a client that gave up is logged as gone), no text
 * it stores or answers quotes a malformed body, and no form of a key reaches it.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRow } from '../../src/sandbox/log/store.js';
import { openSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await openSandbox({ observe: { requestLog: { flushMs: 0 } } });
});
afterAll(async () => {
  await sandbox.close();
});

/** Every row of the sandbox's request log, oldest first. */
function logRows(dataDir = sandbox.dataDir): LogRow[] {
  const db = new DatabaseSync(`${dataDir}/requests.db`, { readOnly: true });
  try {
    return db.prepare('SELECT * FROM request_log ORDER BY id').all() as unknown as LogRow[];
  } finally {
    db.close();
  }
}

/** The rows logged while `send` ran. */
async function loggedBy(send: () => Promise<unknown>, dataDir = sandbox.dataDir): Promise<LogRow[]> {
  const before = logRows(dataDir).at(-1)?.id ?? 0;
  await send();
  return logRows(dataDir).filter((row) => row.id > before);
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
