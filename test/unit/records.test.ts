/**
 * A reply field is one line of its record's description (src/contract/records.ts), proved: a
 * field the API may send with guarantors, added to the real description (vi.mock of the one
 * module that holds it, keeping everything else) with its column, and nothing else. From it come
 * the reply schema's check, the OpenAPI document's schema, the table column and the `--fields`
 * name. Workers run several files without reloading modules (vitest.config.ts `isolate: false`),
 * so this file loads the program afresh after the mock and leaves the real modules after it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CliSandbox } from '../helpers/run-cli.js';

const TABLE = '../../src/contract/record-table.js';

vi.mock('../../src/contract/record-table.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/contract/record-table.js')>();
  const { guarantor } = original.RECORDS;
  const withOccupation = {
    ...guarantor,
    fields: {
      ...guarantor.fields,
      occupation: { kind: 'text', optional: true, label: 'Occupation', sandbox: 'never' },
    },
    table: { ...guarantor.table, list: [...guarantor.table.list, 'occupation'] },
  };
  return { ...original, RECORDS: { ...original.RECORDS, guarantor: withOccupation } };
});

/** The program's modules, loaded after the mock. */
async function load() {
  vi.resetModules();
  return {
    ...(await import('../../src/contract/schemas.js')),
    ...(await import('../../src/sandbox/openapi.js')),
    ...(await import('../helpers/run-cli.js')),
    ...(await import('../helpers/sandbox.js')),
  };
}

let m: Awaited<ReturnType<typeof load>>;
let sandbox: CliSandbox;
let loanRequestId: string;

beforeAll(async () => {
  m = await load();
  sandbox = await m.cliSandbox();
  const seeded = await m.seedLoanRequest(sandbox.app, sandbox.org);
  loanRequestId = String(seeded.loanRequestId);
  const added = await m.call(sandbox.app, 'addGuarantor', {
    key: sandbox.api_key,
    params: { id: loanRequestId },
    productId: sandbox.product_id,
    body: m.sampleBody('addGuarantor', sandbox.org_id),
  });
  expect(added.json.status, added.raw).toBe('success');
});
afterAll(async () => {
  await sandbox?.close();
  vi.doUnmock(TABLE);
  vi.resetModules();
});

describe('a reply field added to its record as CONTRIBUTING.md says', () => {
  it('is checked by the reply schema and described in the OpenAPI document', () => {
    const guarantor = { id: 1, user_id: 1, org_id: 1, loan_request_id: 1, firstname: 'Ada', lastname: 'Obi' };
    const stamped = { ...guarantor, email: 'a@example.com', phone: '+2348012345678' };
    const times = { created_at: '2026-03-02T09:30:00Z', updated_at: '2026-03-02T09:30:00Z' };
    expect(m.GuarantorRecord.safeParse({ ...stamped, ...times, occupation: 'teacher' }).success).toBe(true);
    expect(m.GuarantorRecord.safeParse({ ...stamped, ...times, occupation: 7 }).success).toBe(false);
    const document = JSON.stringify(m.openApiDocument({ serverUrl: 'http://127.0.0.1:4010', version: '0' }));
    expect(document).toContain('"relationship":{"type":"string"},"created_at":');
    expect(document).toContain('"occupation":{"type":"string"}');
  });

  it('is a table column and a --fields name of the verbs that print the record', async () => {
    const table = await sandbox.run(['loan', 'guarantors', loanRequestId, '-o', 'table']);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/ID\s.*FIRST NAME.*ADDED\s.*OCCUPATION/);
    const picked = await sandbox.run(['loan', 'guarantors', loanRequestId, '--fields', 'id,occupation', '-o', 'csv']);
    expect(picked.exitCode, picked.stderr).toBe(0);
    expect(picked.stdout.split(/\r?\n/)[0]).toBe('id,occupation');
  });
});
