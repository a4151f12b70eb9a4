/**
 * Strings built to break things: SQL fragments, quotes, format strings,
 * markup, very long values, control characters (NUL, ESC sequences, BEL, CR/LF, C1), emoji with
 * joiners and flags, right-to-left text and bidirectional overrides, combining marks, zero-width
 * characters — in every free-text field of every operation of the contract table.
 *
 * - The sandbox stores each one exactly (it is in the database as sent) and returns it exactly
 *   (in the write's reply, and in the read that lists it).
 * - The CLI returns them exactly in JSON, and shows them in tables without breaking the terminal:
 *   control characters escaped (`\x1b`, `\n`, `\u202e`), one line per row, emoji and RTL letters
 *   shown as they are.
 *
 * Lone surrogates are left out: they are not text (JSON carries them, UTF-8 cannot).
 */
import { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { EndpointDef, EndpointKey } from '../../src/contract/endpoints.js';
import { BODY_FIELDS, type FieldDef } from '../../src/contract/fields.js';
import { escapeControl } from '../../src/output/escape.js';
import { createOrganisation, createProduct } from '../../src/sandbox/admin.js';
import { dbPathFor } from '../../src/sandbox/db.js';
import { type CliSandbox, cliSandbox } from '../helpers/run-cli.js';
import { ALL_ENDPOINTS, type CallResult, call, type Org, sampleBody, sampleQuery } from '../helpers/sandbox.js';
import { removeTemps, TERMINAL_CONTROL } from './helpers.js';

const NASTY: Record<string, string> = {
  sql: "Robert'); DROP TABLE users;--",
  sqlOr: "' OR '1'='1' --",
  quotes: `"double" 'single' \`back\` \\backslash\\ \\" \\'`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${…} is the point
  format: '%s %d %n %x ${process.env.HOME} {{7*7}} {0}',
  markup: '<script>alert(1)</script>&amp;<b>',
  json: '{"status":"success","data":null}',
  csv: '=cmd|"/c calc"!A1,"a,b"',
  nul: 'before\u0000after',
  ansi: '\u001b[31mred\u001b[0m \u001b]0;title\u0007 \u001b[2J',
  c0: 'bell\u0007 back\u0008space tab\there vt\u000bff\u000c del\u007f',
  newlines: 'line1\nline2\r\nline3\rline4',
  c1: 'csi\u009b31m nel\u0085 end',
  unicodeLines: 'ls\u2028ps\u2029end',
  emoji: '👩🏾‍💻 🇳🇬 💸 👨‍👩‍👧‍👦',
  rtl: 'مرحبا بالعالم שלום עולם',
  bidi: 'user\u202egnp.exe\u202c and \u2066isolate\u2069 \u200fmark',
  combining: 'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  zeroWidth: 'zero\u200bwidth\ufeffbom\u200djoiner',
  long: `long ${'x'.repeat(5000)} end`,
};
/**
 * Sent with a bracket on each side (the schemas trim surrounding spaces of required text), cut to
 * a length-limited field's limit: a field with a limit is tested at it, not skipped.
 */
const wrap = (text: string, limit = Number.POSITIVE_INFINITY) => {
  const characters = [...`[${text}`];
  return characters.length + 1 <= limit ? `[${text}]` : `${characters.slice(0, limit - 1).join('')}]`;
};
/** A body field's length limit, if its row gives one (src/contract/fields.ts `maxLength`). */
const limitOf = (key: string, field: string) =>
  (BODY_FIELDS as Record<string, readonly FieldDef[]>)[key]?.find((def) => def.name === field)?.maxLength;

/** Not text to echo: the password is stored hashed; these two the spec turns into a bool and an int (2.6). */
const NOT_TEXT = new Set([
  'createUser.password',
  'addBusinessInfo.physical_location',
  'addBusinessInfo.number_of_employees',
]);
/** Stored, but the spec leaves it out of every reply (2.9). */
const NOT_RETURNED = new Set(['addGuarantor.gender']);

let sandbox: CliSandbox;
let app: FastifyInstance;
let org: Org;
let userId: number;
let db: DatabaseSync;

beforeAll(async () => {
  sandbox = await cliSandbox();
  app = sandbox.app;
  org = sandbox.org;
  const body = sampleBody('createUser', 0) as Record<string, unknown>;
  expect((await call(app, 'createUser', { key: org.api_key, body })).json.status).toBe('success');
  const users = (await call(app, 'listUsers', { key: org.api_key })).json.data as Array<{ id: number; email: string }>;
  userId = users.find((user) => user.email === body.email)?.id as number;
  db = new DatabaseSync(dbPathFor(sandbox.dataDir), { readOnly: true });
});
afterAll(async () => {
  db?.close();
  await sandbox?.close();
  removeTemps();
});

function contains(value: unknown, text: string): boolean {
  if (typeof value === 'string') return value === text;
  if (Array.isArray(value)) return value.some((item) => contains(item, text));
  if (value && typeof value === 'object') return Object.values(value).some((item) => contains(item, text));
  return false;
}

/** Is this exact text in some column of some row? (SQLite compares the bytes, NUL included.) */
function inDatabase(text: string): boolean {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
  return tables.some(({ name }) =>
    (db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string }>).some(
      (column) => db.prepare(`SELECT 1 FROM "${name}" WHERE "${column.name}" = ? LIMIT 1`).get(text) !== undefined,
    ),
  );
}

async function newLoanRequest(): Promise<number> {
  const reply = await call(app, 'createLoanRequest', {
    key: org.api_key,
    params: { user_id: userId },
    productId: org.product_id,
    body: { amount: 50000, purpose: 'stock' },
  });
  return (reply.json.data as { id: number }).id;
}

/** The reads that show what a write stored. */
async function readBack(key: EndpointKey, id: number): Promise<CallResult[]> {
  const on = { key: org.api_key, params: { id }, productId: org.product_id };
  const lists = async () => [await call(app, 'listLoanRequests', { ...on, query: { direction: 'DESC', limit: 100 } })];
  switch (key) {
    case 'createUser': {
      const pages: CallResult[] = [];
      for (let page = 1; page < 20; page++) {
        const reply = await call(app, 'listUsers', { key: org.api_key, query: { pages: page } });
        if ((reply.json.data as unknown[]).length === 0) break;
        pages.push(reply);
      }
      return pages;
    }
    case 'createLoanRequest':
    case 'updateLoanRequest':
    case 'approveLoanRequest':
      return lists();
    case 'addBankDetails':
      return [await call(app, 'getBankDetails', on)];
    case 'addGuarantor':
      return [await call(app, 'getGuarantors', on)];
    case 'addEmployment':
      return [await call(app, 'getEmployment', on)];
    default:
      return []; // documents and business information have no read of their own: the reply is it
  }
}

const withText = ALL_ENDPOINTS.filter((def) => def.body !== undefined);

/** The fields of an operation's body that take any text (a format, e.g. e-mail or phone, would refuse these). */
function freeTextFields(def: EndpointDef): string[] {
  const shape = (def.body as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
  return Object.keys(shape).filter(
    (field) =>
      !NOT_TEXT.has(`${def.key}.${field}`) &&
      Object.values(NASTY).every((text) => {
        const value = wrap(text, limitOf(def.key, field));
        const parsed = shape[field]?.safeParse(value);
        return parsed?.success && parsed.data === value;
      }),
  );
}

describe('the sandbox stores and returns them exactly', () => {
  it('finds the free-text fields of every operation (sanity)', () => {
    const fields = Object.fromEntries(withText.map((def) => [def.key, freeTextFields(def)]));
    expect(fields).toMatchObject({
      createUser: ['firstname', 'lastname', 'gender'],
      createLoanRequest: ['purpose'],
      updateLoanRequest: ['purpose'],
      addGuarantor: expect.arrayContaining(['firstname', 'lastname', 'relationship']),
      addEmployment: expect.arrayContaining(['company_name', 'position', 'manager']),
      approveLoanRequest: ['note'],
    });
  });

  describe.each(withText.map((def) => [def.key, def] as const))('%s', (_key, def) => {
    it.each(Object.entries(NASTY))('%s in every free-text field', async (_name, text) => {
      const key = def.key as EndpointKey;
      const fields = freeTextFields(def);
      for (const [i, field] of fields.entries()) {
        const value = wrap(text, limitOf(key, field));
        const id = await newLoanRequest();
        const sample = sampleBody(key, org.org_id) as Record<string, unknown>;
        const body = {
          ...sample,
          ...(key === 'createUser' && { email: `nasty.${_name}.${i}.${Date.now()}@example.com` }),
          [field]: value,
        };
        const reply = await call(app, key, {
          key: org.api_key,
          params: { id, user_id: userId },
          productId: org.product_id,
          query: sampleQuery(key),
          body,
        });
        expect(reply.json.status, `${field}: ${reply.raw.slice(0, 300)}`).toBe('success');
        expect(inDatabase(value), `${field} stored exactly`).toBe(true);
        if (NOT_RETURNED.has(`${key}.${field}`)) continue;
        const reads = await readBack(key, id);
        const seen = [reply, ...reads].filter((result) => contains(result.json, value));
        expect(seen.length, `${field} returned exactly`).toBeGreaterThan(0);
        if (reads.length > 0) {
          expect(
            reads.some((result) => contains(result.json, value)),
            `${field} returned exactly by the read`,
          ).toBe(true);
        }
      }
    });
  });

  it('a length-limited field one character past its limit is refused, naming the field, and nothing is stored', async () => {
    const limited = withText.flatMap((def) =>
      freeTextFields(def).flatMap((field) => {
        const limit = limitOf(def.key, field);
        return limit === undefined ? [] : [{ key: def.key as EndpointKey, field, limit }];
      }),
    );
    for (const { key, field, limit } of limited) {
      const value = `${'é'.repeat(limit)}x`;
      const reply = await call(app, key, {
        key: org.api_key,
        params: { id: await newLoanRequest(), user_id: userId },
        productId: org.product_id,
        query: sampleQuery(key),
        body: { ...(sampleBody(key, org.org_id) as object), [field]: value },
      });
      expect(reply.http, `${key}.${field}`).toBe(400);
      expect(reply.json.message, `${key}.${field}`).toContain(field);
      expect(inDatabase(value), `${key}.${field}`).toBe(false);
    }
  });

  it('a value of 900,000 characters (under the 1 MiB body limit) comes back whole', async () => {
    const other = createOrganisation(sandbox.dataDir, 'Long Lender');
    const product = createProduct(sandbox.dataDir, other.org_id, 'Long Loan');
    const body = { ...(sampleBody('createUser', 0) as object), firstname: `a${'ü'.repeat(450_000)}z` };
    const created = await call(app, 'createUser', { key: other.api_key, body });
    expect(created.json.status).toBe('success');
    const list = await call(app, 'listUsers', { key: other.api_key });
    expect((list.json.data as Array<{ firstname: string }>)[0]?.firstname).toBe(body.firstname);
    expect(product.product_id).toBeGreaterThan(0);
  });
});

describe('the CLI returns them exactly, and its tables do not break the terminal', () => {
  let loanId: string;

  beforeAll(async () => {
    // One loan request carrying every nasty string somewhere: purpose, bank, guarantors, employment.
    const id = await newLoanRequest();
    loanId = String(id);
    const on = { key: org.api_key, params: { id }, productId: org.product_id };
    const texts = Object.values(NASTY).map((text) => wrap(text));
    await call(app, 'updateLoanRequest', { ...on, body: { purpose: texts.join(' | ') } });
    for (const text of texts) {
      const bank = { ...(sampleBody('addBankDetails', 0) as object), account_name: text, bank_name: text };
      expect((await call(app, 'addBankDetails', { ...on, body: bank })).json.status).toBe('success');
      const guarantor = { ...(sampleBody('addGuarantor', 0) as object), firstname: text, relationship: text };
      expect((await call(app, 'addGuarantor', { ...on, body: guarantor })).json.status).toBe('success');
    }
    const employment = { ...(sampleBody('addEmployment', 0) as object), company_name: texts.join(' ') };
    expect((await call(app, 'addEmployment', { ...on, body: employment })).json.status).toBe('success');
  });

  const loanctl = (args: string[]) => sandbox.run(args);

  it('JSON output carries every string exactly', async () => {
    const guarantors = await loanctl(['loan', 'guarantors', loanId, '-o', 'json']);
    expect(guarantors.exitCode, guarantors.stderr).toBe(0);
    const parsed = JSON.parse(guarantors.stdout) as Array<{ firstname: string }>;
    expect(parsed.map((g) => g.firstname)).toEqual(Object.values(NASTY).map((text) => wrap(text)));
    const users = await loanctl(['user', 'list', '--all', '-o', 'ndjson']);
    const names = users.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { firstname: string }).firstname);
    for (const text of Object.values(NASTY)) expect(names).toContain(wrap(text));
  });

  it.each([
    ['loan guarantors', (id: string) => ['loan', 'guarantors', id], Object.keys(NASTY).length],
    ['loan banks', (id: string) => ['loan', 'banks', id], Object.keys(NASTY).length],
    ['loan list', () => ['loan', 'list', '--limit', '100'], undefined],
    ['user list', () => ['user', 'list', '--all'], undefined],
  ])('%s -o table: no control character reaches the terminal, one line per row', async (_name, args, rows) => {
    const result = await loanctl([...args(loanId), '-o', 'table']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(result.stderr).not.toMatch(TERMINAL_CONTROL);
    const lines = result.stdout.trimEnd().split('\n');
    if (rows !== undefined) expect(lines).toHaveLength(rows + 1);
    // Escaped where they were, so the operator still sees that they are there.
    expect(result.stdout).toContain('\\x1b[31mred\\x1b[0m');
    expect(result.stdout).toContain('\\u202e');
    // Text that is not control is shown as it is.
    expect(result.stdout).toContain('👩🏾‍💻 🇳🇬');
    expect(result.stdout).toContain('مرحبا بالعالم');
  });

  it('loan show -o table (detail views and sub-tables): no control character, every value on its own line', async () => {
    const result = await loanctl(['loan', 'show', loanId, '-o', 'table']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(result.stdout).toContain(escapeControl(wrap(NASTY.newlines as string)));
    expect(result.stdout).toMatch(/^Purpose\s+\[Robert'\); DROP TABLE users;--\] \| /m);
  });
});
