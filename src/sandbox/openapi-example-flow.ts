/**
 * The success replies the OpenAPI document quotes as examples (./openapi-examples.ts), recorded
 * from the sandbox itself: one borrower's whole journey, through every operation of the contract,
 * against a sandbox on a temporary data dir with a fixed clock, over `app.inject`. So an example
 * is what the sandbox really answers, and a tool fed the document (Prism's mock) answers data
 * that fits the document's own schemas.
 *
 * `scripts/gen-openapi-examples.mjs` (`npm run openapi-examples`) writes them; the tests regenerate
 * them in memory and fail when the stored ones are stale (test/sandbox/openapi-examples.test.ts).
 */
import { hash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type EndpointKey, endpointDef, fillPath } from '../contract/endpoints.js';
import { createOrganisation, createProduct } from './admin.js';
import { buildSandbox } from './app.js';
import { dbPathFor } from './db.js';

/** The examples' clock: fixed, so regenerating them gives the same file. */
export const EXAMPLES_NOW = new Date('2026-03-02T09:30:00.000Z');

export type SuccessExamples = Record<EndpointKey, Record<string, unknown>>;

interface Step {
  key: EndpointKey;
  params?: Record<string, number>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

const BORROWER = {
  firstname: 'Ada',
  lastname: 'Obi',
  email: 'ada.obi@example.com',
  password: 'correct horse battery staple',
  phone: '+2348012345678',
  gender: 'female',
};

/** The steps on the borrower's loan request `id`, in the order a lender takes them. */
function journey(id: number, orgId: number): Step[] {
  const on = { id };
  return [
    { key: 'updateLoanRequest', params: on, body: { amount: 50000, purpose: 'Shop stock for the festive season' } },
    { key: 'addBankDetails', params: on, body: { code: '058', account_name: 'Ada Obi', account_number: '0123456789' } },
    { key: 'getBankDetails', params: on },
    {
      key: 'addGuarantor',
      params: on,
      body: {
        ...{ firstname: 'Chi', lastname: 'Eze', gender: 'male', relationship: 'brother' },
        ...{ email: 'chi.eze@example.com', phone: '+2348055555555' },
      },
    },
    { key: 'getGuarantors', params: on },
    {
      key: 'addEmployment',
      params: on,
      body: {
        ...{ status: 'employed', company_name: 'Acme Stores', company_address: '1 Marina, Lagos' },
        ...{ position: 'Cashier', salary: 150000, manager: 'Bola Ade', manager_phone: '+2348098765432' },
        manager_email: 'bola.ade@example.com',
      },
    },
    { key: 'getEmployment', params: on },
    {
      key: 'uploadDocument',
      params: on,
      body: {
        ...{ type: 'passport', title: 'International passport', number: 'A01234567' },
        document_url: 'https://files.example.com/ada-passport.jpg',
      },
    },
    {
      key: 'addBusinessInfo',
      params: on,
      body: {
        ...{ org_id: orgId, name: 'Ada Stores', role: 'owner', industry: 'retail', description: 'Grocery shop' },
        ...{ registered: true, established_on: '2019-03-01', number_of_employees: '4', physical_location: 'Lagos' },
      },
    },
    { key: 'getProgress', params: on },
    { key: 'tokenizeLinker', params: on },
    { key: 'submitLoanRequest', params: on },
    {
      key: 'approveLoanRequest',
      params: on,
      query: { action: 'approve' },
      body: {
        ...{ approved_amount: 45000, rate: 5, tenure: 6, tenured_in: 'months' },
        ...{ rate_type: 'simple-interest', frequency: 'monthly', grace_period: 0, exclude_weekends: false },
      },
    },
    { key: 'listLoanRequests', query: { direction: 'ASC' } },
  ];
}

/** Every operation's success envelope, as the sandbox answers it on the journey. */
export async function recordSuccessExamples(): Promise<SuccessExamples> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loanctl-openapi-examples-'));
  const now = () => EXAMPLES_NOW;
  try {
    const org = createOrganisation(dataDir, 'Example Lender', { now });
    const { product_id } = createProduct(dataDir, org.org_id, 'Working Capital Loan', { now });
    const app = await buildSandbox({
      dbPath: dbPathFor(dataDir),
      now,
      onError: (error) => {
        throw error;
      },
    });
    try {
      const send = (step: Step) => successOf(app, org.api_key, product_id, step);
      const examples: Partial<SuccessExamples> = {};
      const record = async (step: Step) => {
        const reply = await send(step);
        examples[step.key] ??= reply;
        return reply;
      };
      await record({ key: 'createUser', body: BORROWER });
      await record({ key: 'userExists', query: { email: BORROWER.email, action: 'exists' } });
      const users = (await record({ key: 'listUsers' })).data as Array<{ id: number }>;
      const user_id = users[0]?.id ?? 0;
      const created = await record({
        key: 'createLoanRequest',
        params: { user_id },
        body: { amount: 50000, purpose: 'Shop stock' },
      });
      for (const step of journey((created.data as { id: number }).id, org.org_id)) await record(step);
      // A loan request of its own to delete: the journey's is approved, and kept for the list.
      const spare = await send({
        key: 'createLoanRequest',
        params: { user_id },
        body: { amount: 900, purpose: 'Stock' },
      });
      await record({ key: 'deleteLoanRequest', params: { id: (spare.data as { id: number }).id } });
      return steadied(examples as SuccessExamples);
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The examples with each value the sandbox draws at random (./secrets.ts: a record's `reference`, a
 * linker id) in place of a stand-in of the same shape, the same for the same value: so
 * regenerating them gives the same file, and a loan request's reference is the same in every reply.
 */
function steadied(examples: SuccessExamples): SuccessExamples {
  const standIns = new Map<string, string>();
  const standIn = (random: string) => {
    const [, prefix = '', body = ''] = /^(lnk_)?(.*)$/.exec(random) ?? [];
    if (!standIns.has(random)) {
      const drawn = hash('sha256', String(standIns.size), 'base64').replace(/[^A-Za-z0-9]/g, '');
      standIns.set(random, `${prefix}${drawn.slice(0, body.length)}`);
    }
    return standIns.get(random);
  };
  return JSON.parse(
    JSON.stringify(examples, (key, value) =>
      typeof value === 'string' && (key === 'reference' || value.startsWith('lnk_')) ? standIn(value) : value,
    ),
  );
}

/** The envelope of a step's reply; anything but a success stops the recording, saying which step. */
async function successOf(
  app: FastifyInstance,
  apiKey: string,
  productId: number,
  step: Step,
): Promise<Record<string, unknown>> {
  const def = endpointDef(step.key);
  const search = new URLSearchParams(step.query);
  if (def.productId) search.set('product-id', String(productId));
  const query = search.toString();
  const reply = await app.inject({
    method: def.method,
    url: `${fillPath(def.path, step.params ?? {})}${query ? `?${query}` : ''}`,
    headers: { authorization: `Bearer ${apiKey}` },
    ...(step.body && { payload: step.body }),
  });
  const envelope = JSON.parse(reply.body) as Record<string, unknown>;
  if (reply.statusCode !== 200 || envelope.status !== 'success') {
    throw new Error(`${step.key} did not succeed (HTTP ${reply.statusCode}): ${reply.body}`);
  }
  return envelope;
}
