/**
 * The bulk engine and its parts: reading NDJSON and CSV as streams, the order and concurrency of
 * the engine, row validation with the single-row parsers (all without a server), and the rule that
 * makes `loan create --from` safe to run again (runCli against the in-process sandbox).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { APPROVAL_FIELDS } from '../../src/bulk/approvals.js';
import { type BulkTask, type RowResult, runBulk } from '../../src/bulk/engine.js';
import { closestField, matchField } from '../../src/bulk/headers.js';
import { fingerprint, LOAN_FIELDS, loanTask } from '../../src/bulk/loans.js';
import { resultWriter, startProgress, summaryLine } from '../../src/bulk/report.js';
import { parseConcurrency } from '../../src/bulk/run.js';
import { openRowSource, type RawRow } from '../../src/bulk/source.js';
import { USER_FIELDS, userTask } from '../../src/bulk/users.js';
import { AuthError, NetworkError, UsageError } from '../../src/errors.js';
import { captured } from '../helpers/fake-io.js';
import { cliSandbox } from '../helpers/run-cli.js';
import { call, seedLoanRequest } from '../helpers/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'loanctl-bulk-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function stdin(text: string) {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean };
  stream.end(text);
  return stream;
}

/** The known fields of the rows the reading tests use. */
const FIELDS = ['first_name', 'email', 'phone_number', 'a', 'b', 'amount'];

async function readAll(from: string, text?: string, format?: 'csv' | 'ndjson'): Promise<RawRow[]> {
  const source = await openRowSource(from, { stdin: stdin(text ?? ''), format, fields: FIELDS });
  const rows: RawRow[] = [];
  for await (const row of source.rows) rows.push(row);
  return rows;
}

describe('reading rows', () => {
  it('reads CSV with a header, quotes, commas and line breaks in cells, a BOM and CRLF', async () => {
    const path = file(
      'users.csv',
      '\uFEFFFirst Name,email,Phone-Number\r\n"Obi, Ada",ada@example.com,0801\r\n"Line\r\nbreak","say ""hi""",x\r\n\r\n',
    );
    expect(await readAll(path)).toEqual([
      {
        row: 1,
        cells: ['Obi, Ada', 'ada@example.com', '0801'],
        fields: { first_name: 'Obi, Ada', email: 'ada@example.com', phone_number: '0801' },
      },
      {
        row: 2,
        cells: ['Line\r\nbreak', 'say "hi"', 'x'],
        fields: { first_name: 'Line\r\nbreak', email: 'say "hi"', phone_number: 'x' },
      },
    ]);
  });

  it('reports a CSV record with the wrong number of cells as that row, and reads on', async () => {
    const rows = await readAll(file('short.csv', 'a,b\n1\n2,3\n'));
    expect(rows[0]).toEqual({ row: 1, cells: ['1'], error: 'has 1 cell, but the header names 2' });
    expect(rows[1]).toEqual({ row: 2, cells: ['2', '3'], fields: { a: '2', b: '3' } });
  });

  it('reads NDJSON, skipping blank lines, with bad lines as row errors', async () => {
    const rows = await readAll(file('rows.ndjson', '{"Email":"a@x.io"}\n\n   \nnot json\n[1]\n{"amount":5}'));
    expect(rows.map((row) => row.row)).toEqual([1, 2, 3, 4]);
    expect(rows[0]?.fields).toEqual({ email: 'a@x.io' });
    expect(rows[1]?.error).toMatch(/^is not valid JSON/);
    expect(rows[2]?.error).toMatch(/^is not a JSON object/);
    expect(rows[3]?.fields).toEqual({ amount: 5 });
  });

  it('refuses an NDJSON row holding a number JSON cannot keep as written (1e999, past 2^53), and reads on', async () => {
    const rows = await readAll(
      file('numbers.ndjson', '{"user_id":1e999}\n{"user_id":99999999999999999999}\n{"user_id":7,"amount":0.5}'),
    );
    expect(rows[0]?.error).toMatch(/^has a number that cannot be sent as written \("user_id": 1e999\)/);
    expect(rows[1]?.error).toMatch(/\("user_id": 99999999999999999999\)/);
    expect(rows[2]?.fields).toEqual({ user_id: 7, amount: 0.5 });
  });

  it('tells NDJSON from CSV on stdin by the content, and --format overrides', async () => {
    expect(await readAll('-', '\n{"a":1}\n')).toEqual([{ row: 1, line: '{"a":1}', fields: { a: 1 } }]);
    expect(await readAll('-', 'a,b\n1,2\n')).toEqual([{ row: 1, cells: ['1', '2'], fields: { a: '1', b: '2' } }]);
    expect(await readAll(file('odd.txt', 'a\n1\n'), undefined, 'csv')).toEqual([
      { row: 1, cells: ['1'], fields: { a: '1' } },
    ]);
  });

  it('a missing file or a terminal on stdin is a usage error before anything starts', async () => {
    await expect(openRowSource(join(dir, 'nope.csv'), { stdin: stdin(''), fields: FIELDS })).rejects.toThrow(
      /cannot read .*nope\.csv: no such file/,
    );
    const tty = Object.assign(stdin(''), { isTTY: true });
    await expect(openRowSource('-', { stdin: tty, fields: FIELDS })).rejects.toThrow(UsageError);
  });

  it('streams: the first rows come before the end of the input', async () => {
    const input = new PassThrough() as PassThrough & { isTTY?: boolean };
    input.write('{"n":1}\n{"n":2}\n');
    const source = await openRowSource('-', { stdin: input, fields: FIELDS });
    const iterator = source.rows[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ row: 1, fields: { n: 1 } });
    expect((await iterator.next()).value).toMatchObject({ row: 2, fields: { n: 2 } });
    input.end('{"n":3}\n');
    expect((await iterator.next()).value).toMatchObject({ row: 3, fields: { n: 3 } });
    expect((await iterator.next()).done).toBe(true);
  });
});

async function* generate(count: number): AsyncGenerator<RawRow> {
  for (let row = 1; row <= count; row++) yield { row, fields: { n: row } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('lenient headers (a function over the known names)', () => {
  it('case, spaces, underscores and dashes do not count; the closest name is offered for a typo only', () => {
    const known = ['firstname', 'user_id', 'amount'];
    expect(matchField('First Name', known)).toBe('firstname');
    expect(matchField(' USER-ID ', known)).toBe('user_id');
    expect(matchField('User ID', known)).toBe('user_id');
    expect(matchField('colour', known)).toBeUndefined();
    expect(matchField('Borrower ID', known)).toBe('user_id');
    expect(matchField('Phone Number', known)).toBeUndefined(); // not a field these rows have
    expect(closestField('Frist Name', known)).toBe('firstname');
    expect(closestField('amout', known)).toBe('amount');
    expect(closestField('colour', known)).toBeUndefined();
  });
});

describe('the headers of an approvals file', () => {
  it("a spreadsheet's names for the approval's columns, and none of them where the rows have no such field", () => {
    const expected: Record<string, string> = {
      'Loan ID': 'loan',
      Reference: 'loan',
      'Amount Approved': 'approved_amount',
      'Interest Rate': 'rate',
      APR: 'annual_rate',
      'Annual Rate': 'annual_rate',
      Term: 'tenure',
      'Tenure Unit': 'tenured_in',
      'Interest Type': 'rate_type',
      'Repayment Frequency': 'frequency',
      Notes: 'note',
    };
    for (const [header, field] of Object.entries(expected)) expect(matchField(header, APPROVAL_FIELDS)).toBe(field);
    // A users file has no loan column: its "ID" or "Reference" is not taken for one.
    expect(matchField('ID', USER_FIELDS)).toBeUndefined();
    expect(matchField('Reference', LOAN_FIELDS)).toBeUndefined();
  });
});

describe('the engine', () => {
  it('writes results in row order whatever order they finish in, with at most N in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const task: BulkTask<number> = {
      prepare: (fields) => fields.n as number,
      async execute(n) {
        inFlight++;
        most = Math.max(most, inFlight);
        await sleep((n * 7) % 5); // later rows often finish first
        inFlight--;
        return { status: n % 10 === 0 ? 'exists' : 'success', id: n, message: 'ok' };
      },
    };
    const written: RowResult[] = [];
    const run = runBulk(generate(100), task, { concurrency: 4, write: (result) => void written.push(result) });
    const summary = await run.done;
    expect(written.map((result) => result.row)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(most).toBe(4);
    expect(summary).toMatchObject({ rows: 100, success: 90, exists: 10, error: 0 });
  });

  it('a bad row or a failed request is that row only; the others go on', async () => {
    const task: BulkTask<number> = {
      prepare(fields) {
        if (fields.n === 2) throw new UsageError('email must be an e-mail address (got "x").');
        return fields.n as number;
      },
      async execute(n) {
        if (n === 3) throw new NetworkError('Could not connect to host: connection refused.');
        return { status: 'success', message: 'ok' };
      },
    };
    const written: RowResult[] = [];
    const rows = (async function* () {
      yield* generate(3);
      yield { row: 4, error: 'is not valid JSON' };
      yield { row: 5, fields: { n: 5 } };
    })();
    const summary = await runBulk(rows, task, { concurrency: 2, write: (r) => void written.push(r) }).done;
    expect(written.map((r) => [r.row, r.status])).toEqual([
      [1, 'success'],
      [2, 'error'],
      [3, 'error'],
      [4, 'error'],
      [5, 'success'],
    ]);
    expect(written[1]?.message).toBe('email must be an e-mail address (got "x"). Not sent.');
    expect(written[2]?.message).toMatch(/connection refused/);
    expect(written[3]?.message).toBe('Row 4 is not valid JSON. Not sent.');
    expect(summary.error).toBe(3);
  });

  it('holds reading back while results wait to be written (the window): memory stays flat', async () => {
    let read = 0;
    let written = 0;
    let most = 0;
    const rows = (async function* () {
      for (let row = 1; row <= 200; row++) {
        read++;
        most = Math.max(most, read - written);
        yield { row, fields: { n: row } };
      }
    })();
    const task: BulkTask<number> = {
      prepare: (f) => f.n as number,
      execute: async () => ({ status: 'success', message: '' }),
    };
    await runBulk(rows, task, {
      concurrency: 4,
      window: 10,
      write: async () => {
        await sleep(1); // a slow stdout
        written++;
      },
    }).done;
    expect(written).toBe(200);
    expect(most).toBeLessThanOrEqual(10 + 1);
  });

  it('a fatal error (the key was rejected) stops reading; the rows already started are written', async () => {
    const task: BulkTask<number> = {
      prepare: (f) => f.n as number,
      async execute(n) {
        if (n === 3) throw new AuthError('The API rejected the API key (HTTP 401).');
        await sleep(5);
        return { status: 'success', message: 'ok' };
      },
      isFatal: (error) => error instanceof AuthError,
    };
    const written: RowResult[] = [];
    const summary = await runBulk(generate(1000), task, { concurrency: 2, write: (r) => void written.push(r) }).done;
    expect(summary.fatal).toBeInstanceOf(AuthError);
    expect(written.length).toBeLessThan(10);
    expect(written.map((r) => r.row)).toEqual(Array.from({ length: written.length }, (_, i) => i + 1));
    expect(written.find((r) => r.row === 3)?.status).toBe('error');
  });
});

describe('rows of users and loan requests', () => {
  const noApi = () => {
    throw new Error('no request expected');
  };

  it('normalises a user row with the single-row parsers; the password is kept as given', () => {
    const task = userTask(noApi);
    const body = task.prepare(
      {
        firstname: ' Ada ',
        lastname: 'Obi',
        email: ' ada@example.com',
        password: ' pass word ',
        phone: '0801 234 5678',
        gender: 'female',
      },
      1,
    );
    expect(body).toEqual({
      firstname: 'Ada',
      lastname: 'Obi',
      email: 'ada@example.com',
      password: ' pass word ',
      phone: '+2348012345678',
      gender: 'female',
    });
  });

  it('names every missing field of a user row, and the bad one', () => {
    const task = userTask(noApi);
    expect(() => task.prepare({ firstname: 'Ada', email: '', phone: '08012345678' }, 1)).toThrow(
      'Missing lastname, email, gender, password.',
    );
    expect(() =>
      task.prepare({ firstname: 'A', lastname: 'O', email: 'a@x.io', password: 'p', phone: '123', gender: 'f' }, 1),
    ).toThrow(/^phone must be a Nigerian phone number/);
    const good = { firstname: 'A', lastname: 'O', email: 'a@x.io', phone: '08012345678', gender: 'female' };
    expect(() => task.prepare(good, 1)).toThrow(/^Missing password\.$/);
    expect(() => task.prepare({ ...good, password: true }, 1)).toThrow(/^password must be text\.$/);
    // The other fields are told first: the password's type is the last thing wrong with the row.
    expect(() => task.prepare({ ...good, email: '', password: true }, 1)).toThrow(/^Missing email\.$/);
    expect(task.prepare({ ...good, password: 1234 }, 1)).toMatchObject({ password: '1234' });
  });

  it('checks a loan row: user or user_id, amount, purpose, product', () => {
    const task = loanTask(noApi, { defaultProduct: 7 });
    expect(task.prepare({ user: 'ada@example.com', amount: '50,000', purpose: 'Stock' }, 1)).toEqual({
      user: { kind: 'email', email: 'ada@example.com' },
      productId: 7,
      body: { amount: 50000, purpose: 'Stock' },
    });
    expect(task.prepare({ user_id: 12, amount: 1250.5, purpose: 'Fees', product: '3' }, 1)).toMatchObject({
      user: { kind: 'id', id: 12 },
      productId: 3,
    });
    expect(() => task.prepare({ amount: 5, purpose: 'x' }, 1)).toThrow('Missing user');
    expect(() => task.prepare({ user: 'bob', amount: 5, purpose: 'x' }, 1)).toThrow(/user must be a user id or/);
    expect(() =>
      loanTask(noApi, { defaultProduct: undefined }).prepare({ user: 1, amount: 5, purpose: 'x' }, 1),
    ).toThrow(/No product/);
  });

  it('every row is a loan request: a loan made by hand with the same user, amount and purpose is not "this row"', async () => {
    // The real client and `loan create --from`, in-process, against the in-process sandbox.
    const sandbox = await cliSandbox();
    try {
      const { org, app } = sandbox;
      const ada = await seedLoanRequest(app, org, { amount: 500 });
      const on = { key: org.api_key, productId: org.product_id };
      await call(app, 'updateLoanRequest', { ...on, params: { id: ada.loanRequestId }, body: { purpose: 'Stock' } });
      const rows = [
        { user: ada.email, amount: 500, purpose: 'Stock' }, // like the one made by hand: still a new request
        { user: String(ada.userId), amount: 500, purpose: 'Stock' }, // the same again: a second one
      ];
      const path = file('rerun.ndjson', `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
      const result = await sandbox.run(['loan', 'create', '--from', path, '--concurrency', '1']);
      expect(result.exitCode, result.stderr).toBe(0);
      const outcomes = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { status: string; id: number });
      expect(outcomes.map((o) => o.status)).toEqual(['success', 'success']);
      expect(outcomes.map((o) => o.id)).not.toContain(ada.loanRequestId);
      const listed = await call(app, 'listLoanRequests', { ...on, query: { direction: 'ASC' } });
      expect((listed.json.data as { loan_requests: unknown[] }).loan_requests).toHaveLength(3);
    } finally {
      await sandbox.close();
    }
    expect(fingerprint(1, 1, { amount: 500, purpose: 'Stock' })).toBe(
      fingerprint(1, 1, { amount: 500, purpose: ' Stock' }),
    );
  });

  it('--concurrency is 1 to 64, 8 by default', () => {
    expect(parseConcurrency(undefined)).toBe(8);
    expect(parseConcurrency('64')).toBe(64);
    expect(() => parseConcurrency('0')).toThrow(/1 to 64/);
    expect(() => parseConcurrency('65')).toThrow(/1 to 64/);
    expect(() => parseConcurrency('x')).toThrow(UsageError);
  });
});

describe('what a bulk run prints', () => {
  it('a summary line with counts and seconds', () => {
    expect(summaryLine({ read: 10000, rows: 10000, success: 9990, exists: 8, error: 2, elapsedMs: 12_345 })).toBe(
      '10000 rows: 9990 created, 8 existed, 2 failed in 12.3 s',
    );
    expect(summaryLine({ read: 1, rows: 1, success: 1, exists: 0, error: 0, elapsedMs: 250 })).toBe(
      '1 row: 1 created, 0 existed, 0 failed in 0.25 s',
    );
  });

  it('a progress line on a terminal only, erased at the end', async () => {
    const counts = { read: 5, rows: 5, success: 4, exists: 0, error: 1 };
    const source = () => ({ read: 50, total: 100 });
    const pipe = captured(false);
    startProgress(pipe, counts, source).stop();
    expect(pipe.text()).toBe('');

    const tty = captured(true);
    const progress = startProgress(tty, counts, source);
    await sleep(250);
    progress.stop();
    expect(tty.text()).toContain('\r\x1b[K[=========>          ]   50%  5/5 rows done  4 ok  1 failed  ');
    expect(tty.text().endsWith('\r\x1b[K')).toBe(true);
  });

  it('result lines as NDJSON or CSV', async () => {
    const out = captured(false);
    const csv = resultWriter(out, 'csv');
    await csv.write({ row: 1, status: 'success', id: 7, reference: 'LR-1', user_id: 3, message: 'Created, fine' });
    await csv.write({ row: 2, status: 'error', message: 'Missing phone.' });
    await csv.flush();
    expect(out.text()).toBe(
      'row,status,id,reference,email,user_id,message\n1,success,7,LR-1,,3,"Created, fine"\n2,error,,,,,Missing phone.\n',
    );
    const ndjson = captured(false);
    const lines = resultWriter(ndjson, 'ndjson');
    await lines.write({ row: 1, status: 'exists', reference: 'USR-1', message: 'm' });
    await lines.flush();
    expect(JSON.parse(ndjson.text())).toEqual({ row: 1, status: 'exists', reference: 'USR-1', message: 'm' });
  });

  it('to a pipe or file the lines of one turn go out in one write at its end; to a terminal each at once', async () => {
    const row = (n: number): RowResult => ({ row: n, status: 'success', message: 'ok' });
    const pipe = writes(false);
    const piped = resultWriter(pipe, 'ndjson');
    for (const n of [1, 2, 3]) await piped.write(row(n));
    expect(pipe.chunks).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(pipe.chunks.map(rowsIn)).toEqual([[1, 2, 3]]);
    await piped.write(row(4));
    await piped.flush();
    expect(pipe.chunks.map(rowsIn)).toEqual([[1, 2, 3], [4]]);

    const tty = writes(true);
    const shown = resultWriter(tty, 'ndjson');
    for (const n of [1, 2]) await shown.write(row(n));
    expect(tty.chunks.map(rowsIn)).toEqual([[1], [2]]);
  });

  it('a slow reader of a pipe slows the results down: a write waits once stdout is full', async () => {
    const pipe = writes(false, 1);
    const piped = resultWriter(pipe, 'ndjson');
    let waited = false;
    const big = 'x'.repeat(70 * 1024);
    const pending = piped.write({ row: 1, status: 'error', message: big }).then(() => {
      waited = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(waited).toBe(false);
    pipe.release();
    await pending;
    expect(pipe.chunks.map(rowsIn)).toEqual([[1]]);
  });
});

/** A stdout that records each write; with `highWaterMark` 1 and `release`, one whose reader is slow. */
function writes(isTTY: boolean, highWaterMark?: number) {
  const chunks: string[] = [];
  let release = () => {};
  const stream = new Writable({
    ...(highWaterMark ? { highWaterMark } : {}),
    write(chunk, _encoding, callback) {
      chunks.push(chunk.toString());
      if (highWaterMark) release = () => callback();
      else callback();
    },
  }) as Writable & { isTTY?: boolean };
  stream.isTTY = isTTY;
  return Object.assign(stream, { chunks, release: () => release() });
}

function rowsIn(chunk: string): number[] {
  return chunk
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as RowResult).row);
}
