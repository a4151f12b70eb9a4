import { rmSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/sandbox/repos/migrations.js';
import { call, openSandbox, sampleBody, seedLoanRequest, snapshot, tempDir } from '../helpers/sandbox.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('keeps everything across a restart on the same data dir', async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const before = await openSandbox({ dataDir });
  const { org } = before;
  const { loanRequestId } = await seedLoanRequest(before.app, org);
  const on = { key: org.api_key, params: { id: loanRequestId }, productId: org.product_id };
  for (const key of ['addBankDetails', 'addEmployment', 'addGuarantor', 'uploadDocument', 'addBusinessInfo'] as const) {
    await call(before.app, key, { ...on, body: sampleBody(key, org.org_id) });
  }
  await call(before.app, 'submitLoanRequest', on);
  await call(before.app, 'approveLoanRequest', {
    ...on,
    query: { action: 'approve' },
    body: sampleBody('approveLoanRequest', 0),
  });
  const readAll = async (app: typeof before.app) =>
    Promise.all(
      (['getBankDetails', 'getEmployment', 'getGuarantors', 'getProgress'] as const).map(
        async (key) => (await call(app, key, on)).json,
      ),
    ).then(async (parts) => [
      ...parts,
      (await call(app, 'listUsers', { key: org.api_key })).json,
      (await call(app, 'listLoanRequests', { ...on, query: { direction: 'ASC' } })).json,
    ]);
  const seen = await readAll(before.app);
  const rows = snapshot(before.dbPath);
  await before.app.close();

  const after = await openSandbox({ dataDir, org });
  expect(snapshot(after.dbPath)).toEqual(rows);
  expect(await readAll(after.app)).toEqual(seen);
  await after.app.close();
  expect(MIGRATIONS.length).toBeGreaterThan(0);
});
