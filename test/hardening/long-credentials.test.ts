/**
 * An Authorization header of thousands of characters: refused (401) before any work, and the
 * request log hides its pieces in time linear in it (src/sandbox/log/key-pieces.ts), so a
 * stranger's header cannot hold the sandbox's one thread.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Captured, toRow } from '../../src/sandbox/log/entry.js';
import { ENDED, type LogRow, logPathFor } from '../../src/sandbox/log/store.js';
import { openSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** Header shapes of about 14,000 characters: many short words, many key-sized words, one word. */
const LONG_HEADERS = {
  'many 8-character words': `Bearer ${Array.from({ length: 1550 }, (_, i) => `w${String(i).padStart(7, '0')}`).join(' ')}`,
  'one word': `Bearer ${'Q'.repeat(14_000)}`,
  'many 44-character words': `Bearer ${Array.from({ length: 310 }, (_, i) => `sk_other_${String(i).padStart(35, 'k')}`).join(',')}`,
};

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await openSandbox({ listen: true, observe: { requestLog: { flushMs: 0 } } });
});
afterAll(async () => {
  await sandbox.close();
});

function lastLogRow(): LogRow {
  const db = new DatabaseSync(logPathFor(sandbox.dataDir), { readOnly: true });
  try {
    return db.prepare('SELECT * FROM request_log ORDER BY id DESC LIMIT 1').get() as unknown as LogRow;
  } finally {
    db.close();
  }
}

describe('an over-long Authorization header', () => {
  it.each(Object.entries(LONG_HEADERS))('%s: 401 saying so, over a real connection', async (_shape, header) => {
    // A piece of the header in the path too: the log must not keep it.
    const piece = header.slice(200, 220).replaceAll(' ', '').replaceAll(',', '');
    const response = await fetch(`${sandbox.url}/api/v1/user/${piece}`, {
      headers: { authorization: header },
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { status: string; message: string };
    expect(body.status).toBe('error');
    expect(body.message).toMatch(
      /^The Authorization header is too long to hold an API key \(at most 1024 characters\)/,
    );
    await expect.poll(() => lastLogRow().why, { timeout: 10_000 }).toBe('Authorization header too long');
    expect(lastLogRow().path).not.toContain(piece.slice(0, 7));
  });

  it('a key of the right length is still read', async () => {
    const response = await fetch(`${sandbox.url}/api/v1/user`, {
      headers: { authorization: `Bearer ${sandbox.org.api_key}` },
    });
    expect(((await response.json()) as { status: string }).status).toBe('success');
  });
});

describe("the log's key-hiding", () => {
  const captured = (authorization: string, text: string): Captured => ({
    at: Date.now(),
    method: 'POST',
    url: `/api/v1/user?note=${encodeURIComponent(text)}`,
    http: 401,
    ms: 1,
    orgId: undefined,
    faultId: undefined,
    params: {},
    requestBody: { note: text, other: 'x'.repeat(1500) },
    replyText: JSON.stringify({ status: 'error', message: text }),
    authorization,
    ended: ENDED.answered,
  });

  it.each(Object.entries(LONG_HEADERS))(
    "%s: a row costs about what a key's does, its pieces hidden",
    (_shape, header) => {
      const word = header.split(/[\s,]+/).at(-1) as string;
      const text = `see ${word} and ${word.toUpperCase()} and ${encodeURIComponent(word)}`;
      // Against a row of the same texts with a key's header, timed alternately, the fastest of five
      // each: a loaded machine slows both. Building patterns per word cost 100 to 1,000 times a
      // key's row for these headers.
      const key = `Bearer sk_sandbox_${'K'.repeat(32)}`;
      const long: number[] = [];
      const short: number[] = [];
      let row: ReturnType<typeof toRow> | undefined;
      for (let round = 0; round < 5; round++) {
        let started = performance.now();
        toRow(captured(key, text));
        short.push(performance.now() - started);
        started = performance.now();
        row = toRow(captured(header, text));
        long.push(performance.now() - started);
      }
      const ratio = Math.min(...long) / Math.max(Math.min(...short), 1);
      expect(ratio).toBeLessThan(30);
      const stored = JSON.stringify(row);
      expect(stored).not.toContain(word.slice(0, 7));
      expect(stored.toLowerCase()).not.toContain(word.slice(-7).toLowerCase());
    },
  );

  it('hides a key written with escapes (JSON, URL, HTML), keeping the text around it', () => {
    const key = 'k3yPieceAbCdEfGh';
    const text = `a-${key.slice(0, 9)}-b-\\u006b3yPiec-c-k%33yPiec-d-&#x6b;3yPiec-e`;
    const row = toRow({ ...captured(`Bearer ${key}`, ''), url: `/api/v1/user/${text}` });
    expect(row.path).toBe('/api/v1/user/a-***-b-***-c-***-d-***-e');
  });

  it('hides a key in any case among letters whose lower case is longer, keeping the text around it', () => {
    const key = 'k3yPieceAbCdEfGh';
    // 'İ' lowers to two characters: only A–Z may be lowered to find the piece where it is.
    const text = `İİ-${key.slice(0, 9).toUpperCase()}-é-z`;
    const row = toRow({ ...captured(`Bearer ${key}`, ''), url: `/api/v1/user/${text}` });
    expect(row.path).toBe('/api/v1/user/İİ-***-é-z');
  });
});
