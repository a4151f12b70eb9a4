// One sandbox for the file, started in this process; each test starts from the same empty data.
import { type Sandbox, startSandbox } from 'loanctl/sandbox';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { registerBorrower } from '../src/borrowers.js';

let sandbox: Sandbox;
const api = () => ({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
const ada = {
  firstname: 'Ada',
  lastname: 'Obi',
  email: 'ada@example.com',
  password: 'a-password',
  phone: '+2348012345678',
  gender: 'female',
};

beforeAll(async () => {
  sandbox = await startSandbox();
  await sandbox.snapshot('empty');
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.restore('empty'));

it('registers a new borrower once; the second time she exists', async () => {
  expect(await registerBorrower(api(), ada)).toBe('created');
  expect(await registerBorrower(api(), ada)).toBe('exists');
});

it('starts from the empty snapshot again', async () => {
  expect(await registerBorrower(api(), ada)).toBe('created');
});

it('says why the API refused a borrower', async () => {
  await expect(registerBorrower(api(), { ...ada, phone: '12' })).rejects.toThrow('the API refused the borrower');
});
