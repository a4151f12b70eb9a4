/**
 * The success examples of the OpenAPI document (src/sandbox/openapi-examples.ts): the sandbox's own
 * replies, recorded by src/sandbox/openapi-example-flow.ts. They must be today's replies (else
 * `npm run openapi-examples`), one per operation, each a success that fits the contract. That each
 * also fits its schema in the document is redocly's check (test/sandbox/openapi.test.ts); that a
 * mock fed the document answers them without a violation is Prism's (test/e2e/openapi-prism.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointKey } from '../../src/contract/endpoints.js';
import { openApiDocument } from '../../src/sandbox/openapi.js';
import { recordSuccessExamples } from '../../src/sandbox/openapi-example-flow.js';
import { SUCCESS_EXAMPLES } from '../../src/sandbox/openapi-examples.js';
import { VERSION } from '../../src/version.js';
import { replyProblems } from '../helpers/sandbox.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked loosely in assertions
type Json = Record<string, any>;

const doc = openApiDocument({ serverUrl: 'http://127.0.0.1:4010', version: VERSION }) as Json;
const openApiPath = (path: string) => path.replace(/:([a-z_]+)/g, '{$1}');

describe("the OpenAPI document's success examples", () => {
  it('are what the sandbox answers today: regenerated, they are the same (else run `npm run openapi-examples`)', async () => {
    const recorded = await recordSuccessExamples();
    expect(
      Object.keys(SUCCESS_EXAMPLES).sort(),
      'an operation has no stored example: run `npm run openapi-examples`',
    ).toEqual(Object.keys(recorded).sort());
    expect(recorded, 'stale: run `npm run openapi-examples` and commit the file').toEqual(SUCCESS_EXAMPLES);
  });

  it("are each operation's 200 reply example, at each of its paths: a success that fits the contract", () => {
    for (const def of ENDPOINTS) {
      const key = def.key as EndpointKey;
      for (const path of [def.path, ...(def.otherPaths ?? [])]) {
        const example =
          doc.paths[openApiPath(path)][def.method.toLowerCase()].responses['200'].content['application/json'].example;
        expect(example, `${def.method} ${path}`).toEqual(SUCCESS_EXAMPLES[key]);
        expect(example.status, key).toBe('success');
        expect(replyProblems(key, example), key).toEqual([]);
      }
    }
  });

  it('show one journey: the loan request listed is the one created, and its reference the same everywhere', () => {
    const created = SUCCESS_EXAMPLES.createLoanRequest.data as { id: number; reference: string };
    const page = SUCCESS_EXAMPLES.listLoanRequests.data as { loan_requests: { id: number; reference: string }[] };
    expect(page.loan_requests.map(({ id, reference }) => ({ id, reference }))).toContainEqual({
      id: created.id,
      reference: created.reference,
    });
    expect(JSON.stringify(SUCCESS_EXAMPLES)).not.toMatch(/sk_sandbox_/);
  });
});
