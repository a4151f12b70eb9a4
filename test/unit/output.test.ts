import { beforeAll, describe, expect, it } from 'vitest';
import type { GlobalOptions } from '../../src/basics.js';
import { ZERO_TIMESTAMP } from '../../src/contract/schemas.js';
import { parseTimestamp } from '../../src/contract/vocabulary.js';
import { ExitCode, UsageError } from '../../src/errors.js';
import { payloadOf } from '../../src/http/reply.js';
import { csvRow } from '../../src/output/csv.js';
import { escapeControl } from '../../src/output/escape.js';
import { formatCell, formatMoney, formatTimestamp } from '../../src/output/format.js';
import { createRowWriter, printNextPage, render, renderResult } from '../../src/output/render.js';
import { colorEnabled } from '../../src/output/settings.js';
import { formatRate } from '../../src/output/values.js';
import { fakeIo } from '../helpers/fake-io.js';

// Tables show timestamps in the local zone: the expectations below are written in UTC.
process.env.TZ = 'UTC';

beforeAll(() => {
  process.env.TZ = 'UTC';
});

const loan = {
  id: 172,
  user_id: 7,
  fullname: 'Ada Obi',
  amount: 50000,
  purpose: 'stock, "fresh"',
  status: 'saved',
  lender_status: 'saved',
  terms: { approved_amount: 0, rate: 0 },
  submitted_at: ZERO_TIMESTAMP,
  approved_at: '2026-11-22T04:27:21.123Z',
};

function deps(globals: GlobalOptions = {}, options: { tty?: boolean; env?: Record<string, string> } = {}) {
  const io = fakeIo({ tty: options.tty });
  return { io, env: options.env ?? {}, globals };
}

describe('cell formatting (tables only)', () => {
  it('money has thousands separators and two decimals', () => {
    expect(formatMoney(50000)).toBe('50,000.00');
    expect(formatMoney(1234567.5)).toBe('1,234,567.50');
    expect(formatCell(0.1 + 0.2, 'money')).toBe('0.30');
  });

  it('the zero timestamp is —, others are shortened to the minute, with their zone', () => {
    expect(formatTimestamp(ZERO_TIMESTAMP)).toBe('—');
    expect(formatTimestamp('2026-11-22T04:27:21.123Z')).toBe('2026-11-22 04:27 UTC');
    expect(formatTimestamp('2026-11-22T05:27:21.5+01:00')).toBe('2026-11-22 04:27 UTC');
  });

  it("a timestamp is shown in the operator's zone (TZ), which the table names", () => {
    const saved = process.env.TZ;
    try {
      process.env.TZ = 'Africa/Lagos';
      expect(formatTimestamp('2026-11-22T04:27:21Z')).toBe('2026-11-22 05:27 +01:00');
      process.env.TZ = 'Asia/Kolkata';
      expect(formatTimestamp('2026-11-22T04:27:21Z')).toBe('2026-11-22 09:57 +05:30');
      process.env.TZ = 'America/New_York'; // the offset of that date: -04:00 in summer, -05:00 now
      expect(formatTimestamp('2026-07-01T12:00:00Z')).toBe('2026-07-01 08:00 -04:00');
      expect(formatTimestamp('2026-11-22T12:00:00Z')).toBe('2026-11-22 07:00 -05:00');
    } finally {
      process.env.TZ = saved ?? 'UTC';
    }
  });

  it('a rate shows its unit, the tenure unit beside it; fixed-amount is money; unset terms are —', () => {
    expect(formatRate({ rate: 2, tenured_in: 'months', rate_type: 'simple-interest' })).toBe('2 % per month');
    expect(formatRate({ rate: 0.461538, tenured_in: 'weeks' })).toBe('0.461538 % per week');
    expect(formatRate({ rate: 5000, tenured_in: 'months', rate_type: 'fixed-amount' })).toBe(
      '5,000.00 fixed for the whole loan',
    );
    expect(formatRate({ rate: 0, tenured_in: '', rate_type: '' })).toBe('—');
    const terms = { rate: 1.5, tenured_in: 'days', rate_type: 'compound-interest' };
    expect(formatCell(terms.rate, 'rate', terms)).toBe('1.5 % per day');
  });

  it('booleans are yes/no; control characters are escaped so a table cannot break the terminal', () => {
    expect(formatCell(true, 'bool')).toBe('yes');
    expect(formatCell(false, undefined)).toBe('no');
    expect(escapeControl('a\nb\x1b[31mred\x07\u202etxt')).toBe('a\\nb\\x1b[31mred\\x07\\u202etxt');
  });
});

describe('table', () => {
  it('shows the loan columns an operator wants, money formatted and — for unset', async () => {
    const d = deps({ output: 'table' });
    await render([loan], { kind: 'loanRequest' }, d);
    const [header, row] = d.io.stdout.text().split('\n');
    expect(header?.split(/\s{2,}/)).toEqual([
      'ID',
      'BORROWER',
      'AMOUNT',
      'PURPOSE',
      'STATUS',
      'LENDER STATUS',
      'SUBMITTED',
      'APPROVED',
    ]);
    expect(row).toContain('50,000.00');
    expect(row).toContain('—');
    expect(row).toContain('2026-11-22 04:27 UTC');
    expect(d.io.stdout.text()).not.toContain('\x1b');
  });

  it('a hostile value cannot inject escape sequences or break rows', async () => {
    const d = deps({ output: 'table' });
    await render([{ ...loan, purpose: 'x\x1b]0;pwned\x07\nFAKE ROW' }], { kind: 'loanRequest' }, d);
    const out = d.io.stdout.text();
    expect(out).not.toContain('\x1b');
    expect(out.trimEnd().split('\n')).toHaveLength(2);
    expect(out).toContain('x\\x1b]0;pwned\\x07\\nFAKE ROW');
  });

  it('one record is a label/value view; an empty list says so on stderr', async () => {
    const d = deps({ output: 'table' });
    await render(loan, { kind: 'loanRequest' }, d);
    expect(d.io.stdout.text()).toMatch(/^Amount\s+50,000\.00$/m);
    const empty = deps({ output: 'table' });
    await render([], { kind: 'loanRequest' }, empty);
    expect(empty.io.stdout.text()).toBe('');
    expect(empty.io.stderr.text()).toBe('No loan requests found.\n');
  });

  it('headers are bold only when colour is on', async () => {
    const d = deps({ output: 'table' }, { env: { FORCE_COLOR: '1' } });
    await render([loan], { kind: 'loanRequest' }, d);
    expect(d.io.stdout.text()).toContain('\x1b[1mID');
  });
});

describe('--fields', () => {
  it('picks and orders table columns, also fields outside the default set', async () => {
    const d = deps({ output: 'table', fields: 'amount,id,terms.rate' });
    await render([loan], { kind: 'loanRequest' }, d);
    expect(
      d.io.stdout
        .text()
        .split('\n')[0]
        ?.trim()
        .split(/\s{2,}/),
    ).toEqual(['AMOUNT', 'ID', 'RATE']);
  });

  it('picks JSON keys, keeping nesting for dotted names', async () => {
    const d = deps({ output: 'json', fields: 'id,terms.rate' });
    await render([loan], { kind: 'loanRequest' }, d);
    expect(JSON.parse(d.io.stdout.text())).toEqual([{ id: 172, terms: { rate: 0 } }]);
  });

  it('an unknown field is exit 2 listing the valid ones', async () => {
    const d = deps({ output: 'csv', fields: 'id,colour' });
    const error = await render([loan], { kind: 'loanRequest' }, d).catch((e) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe('--fields: unknown field "colour".');
    expect(error.hint).toMatch(/^Valid fields: id, fullname, amount, /);
    expect(d.io.stdout.text()).toBe('');
  });
});

describe("the real service's timestamps: nanoseconds and numeric offsets", () => {
  const NANO = '2022-02-11T09:10:25.815412395+01:00';
  const real = {
    ...loan,
    created_at: NANO,
    approved_at: '2022-02-12T23:59:59.999999999-0500',
    submitted_at: ZERO_TIMESTAMP,
  };

  it('parseTimestamp reads them to the millisecond, cut not rounded; anything else is not a timestamp', () => {
    expect(parseTimestamp(NANO)?.toISOString()).toBe('2022-02-11T08:10:25.815Z');
    expect(parseTimestamp('2022-02-12T23:59:59.999999999-0500')?.toISOString()).toBe('2022-02-13T04:59:59.999Z');
    expect(parseTimestamp('2022-02-11T09:10:25+0100')?.toISOString()).toBe('2022-02-11T08:10:25.000Z');
    expect(parseTimestamp('2022-02-11T09:10:25.5Z')?.toISOString()).toBe('2022-02-11T09:10:25.500Z');
    for (const bad of ['2022-02-11', '2022-02-11T09:10:25.8+01', 'soon', '2022-13-45T09:10:25Z']) {
      expect(parseTimestamp(bad), bad).toBeUndefined();
    }
  });

  it('a table shows them in local time (TZ=UTC here); CSV and --fields JSON pass them through unchanged', async () => {
    const table = deps({ output: 'table', fields: 'id,created_at,approved_at,submitted_at' });
    await render([real], { kind: 'loanRequest' }, table);
    const [, row] = table.io.stdout.text().split('\n');
    expect(row?.trim().split(/\s{2,}/)).toEqual(['172', '2022-02-11 08:10 UTC', '2022-02-13 04:59 UTC', '—']);

    const csv = deps({ output: 'csv', fields: 'id,created_at,approved_at' });
    await render([real], { kind: 'loanRequest' }, csv);
    expect(csv.io.stdout.text()).toBe(`id,created_at,approved_at\n172,${NANO},2022-02-12T23:59:59.999999999-0500\n`);

    const json = deps({ output: 'json', fields: 'created_at' });
    await render([real], { kind: 'loanRequest' }, json);
    expect(JSON.parse(json.io.stdout.text())).toEqual([{ created_at: NANO }]);
  });
});

describe('json, ndjson, csv', () => {
  it('json passes values through unchanged', async () => {
    const d = deps({ output: 'json' });
    await render(loan, { kind: 'loanRequest' }, d);
    expect(JSON.parse(d.io.stdout.text())).toEqual(loan);
  });

  it('ndjson prints one line per element', async () => {
    const d = deps({ output: 'ndjson' });
    await render([loan, { ...loan, id: 173 }], { kind: 'loanRequest' }, d);
    const lines = d.io.stdout.text().trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).id)).toEqual([172, 173]);
  });

  it('csv has a header row and quotes commas, quotes and newlines', async () => {
    const d = deps({ output: 'csv', fields: 'id,purpose,amount' });
    await render([loan, { ...loan, id: 2, purpose: 'line1\nline2' }], { kind: 'loanRequest' }, d);
    expect(d.io.stdout.text()).toBe('id,purpose,amount\n172,"stock, ""fresh""",50000\n2,"line1\nline2",50000\n');
    expect(csvRow([' padded', null, { a: 1 }])).toBe('" padded",,"{""a"":1}"\n');
  });

  it('csv with --bom begins with the byte-order mark Excel needs for UTF-8, once, listed or streamed; without, none', async () => {
    const named = { ...loan, purpose: 'Àjàyí' };
    const once = deps({ output: 'csv', fields: 'id,purpose', bom: true });
    await render([named, { ...named, id: 2 }], { kind: 'loanRequest' }, once);
    expect(once.io.stdout.text()).toBe('\uFEFFid,purpose\n172,Àjàyí\n2,Àjàyí\n');
    const streamed = deps({ output: 'csv', fields: 'id,purpose', bom: true });
    const rows = createRowWriter('loanRequest', streamed);
    await rows.write([named]);
    await rows.write([{ ...named, id: 2 }]);
    await rows.end();
    expect(streamed.io.stdout.text()).toBe('\uFEFFid,purpose\n172,Àjàyí\n2,Àjàyí\n');
    const plain = deps({ output: 'csv', fields: 'id,purpose' });
    await render([named], { kind: 'loanRequest' }, plain);
    expect(plain.io.stdout.text()).toBe('id,purpose\n172,Àjàyí\n');
  });

  it('csv neutralises text a spreadsheet would run as a formula, and leaves phones and numbers be', () => {
    expect(csvRow(['=HYPERLINK("http://x","y")', '@SUM(A1)', '+cmd|"/c calc"!A1', '-2+3', '\t=1'])).toBe(
      `"'=HYPERLINK(""http://x"",""y"")",'@SUM(A1),"'+cmd|""/c calc""!A1",'-2+3,'\t=1\n`,
    );
    expect(csvRow(['+2348012345678', '-5', -5, 'a=b', '2026-03-02'])).toBe('+2348012345678,-5,-5,a=b,2026-03-02\n');
  });

  it('csv leaves an unset timestamp empty (in any precision or zone), and keeps a set one as sent', async () => {
    const d = deps({ output: 'csv', fields: 'id,submitted_at,approved_at' });
    const sent = '2026-03-02T09:10:25.815412395+01:00';
    await render([{ ...loan, submitted_at: sent, approved_at: ZERO_TIMESTAMP }], { kind: 'loanRequest' }, d);
    expect(d.io.stdout.text()).toBe(`id,submitted_at,approved_at\n172,${sent},\n`);
    expect(csvRow(['0001-01-01T00:00:00.000000000+00:00', '0001-01-01 is a text'])).toBe(',0001-01-01 is a text\n');
  });

  it('takes data1 where the API puts the loan request there', () => {
    expect(payloadOf({ data: null, data1: loan })).toBe(loan);
    expect(payloadOf({ data: [1], data1: null })).toEqual([1]);
    expect(payloadOf({ data: null })).toBeNull();
  });

  it('--raw prints the whole envelope exactly as received', async () => {
    const rawBody = '{"status":"success","message":"ok","data":null,"data1":{"id":172,"amount":50000.0}}';
    const d = deps({ raw: true, output: 'table' });
    await renderResult({ payload: { id: 172 }, rawBody }, 'loanRequest', d);
    expect(d.io.stdout.text()).toBe(`${rawBody}\n`);
  });

  it('default format: table on a TTY, json otherwise', async () => {
    const tty = deps({}, { tty: true, env: { NO_COLOR: '1' } });
    await render({ id: 1 }, {}, tty);
    expect(tty.io.stdout.text()).toBe('ID  1\n');
    const piped = deps();
    await render({ id: 1 }, {}, piped);
    expect(JSON.parse(piped.io.stdout.text())).toEqual({ id: 1 });
  });
});

describe('streaming rows (--all) and the next-page hint', () => {
  it('json streams a valid array across pages', async () => {
    const d = deps({ output: 'json' });
    const writer = createRowWriter('loanRequest', d);
    await writer.write([{ id: 1 }]);
    await writer.write([{ id: 2 }, { id: 3 }]);
    await writer.end();
    expect(JSON.parse(d.io.stdout.text())).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('csv writes one header, then rows as they come', async () => {
    const d = deps({ output: 'csv', fields: 'id' });
    const writer = createRowWriter('loanRequest', d);
    await writer.write([{ id: 1 }]);
    expect(d.io.stdout.text()).toBe('id\n1\n');
    await writer.write([{ id: 2 }]);
    await writer.end();
    expect(d.io.stdout.text()).toBe('id\n1\n2\n');
  });

  it('next page goes to stderr', () => {
    const d = deps();
    printNextPage(d, '--cursor 172');
    expect(d.io.stderr.text()).toBe('next: --cursor 172\n');
    expect(d.io.stdout.text()).toBe('');
  });
});

describe('colour', () => {
  const tty = { isTTY: true } as never;
  it('on a TTY only, never with NO_COLOR or --no-color, forced by FORCE_COLOR', () => {
    expect(colorEnabled({}, {}, tty)).toBe(true);
    expect(colorEnabled({}, {}, { isTTY: false } as never)).toBe(false);
    expect(colorEnabled({}, { NO_COLOR: '1' }, tty)).toBe(false);
    expect(colorEnabled({ color: false }, {}, tty)).toBe(false);
    expect(colorEnabled({}, { FORCE_COLOR: '1' }, { isTTY: false } as never)).toBe(true);
    expect(colorEnabled({}, { FORCE_COLOR: '1', NO_COLOR: '1' }, tty)).toBe(false);
  });
});
