/**
 * The zod-free half of the contract (src/contract/operations.ts, vocabulary.ts) against the zod
 * half (endpoints.ts, schemas.ts): the CLI checks queries and envelopes without zod, so its
 * answers must be zod's, for every operation and any text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ENDPOINTS, type EndpointDef, endpoint, querySchema } from '../../src/contract/endpoints.js';
import { checkQuery, OPERATIONS, operation } from '../../src/contract/operations.js';
import { Envelope } from '../../src/contract/schemas.js';
import { EMAIL_PATTERN, isEnvelope } from '../../src/contract/vocabulary.js';

/** Query text of the kinds that matter: numbers in every spelling, dates, e-mails, junk. */
const queryText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', ' ', '0', '1', '-1', '1.5', '-1.5', '1e3', '0x10', ' 7 ', 'Infinity', '-Infinity', 'NaN'),
  fc.integer({ min: -5, max: 1e6 }).map(String),
  fc.constantFrom('2024-02-29', '2023-02-29', '2024-13-01', '2024-1-1', ' 2024-01-01', '2024-01-01x', 'abc'),
  fc.constantFrom('ada@example.com', 'x@y.z', 'a..b@example.com', 'ada@example', '@example.com', 'ada@ex-.com'),
  fc.emailAddress(),
  fc.constantFrom('exists', 'approve', 'EXISTS', 'DESC', 'asc'),
);

describe('operations without zod', () => {
  it('every operation of the table has its schemas, and says whether it carries a body', () => {
    expect(OPERATIONS.map((op) => op.key)).toEqual(ENDPOINTS.map((def) => def.key));
    for (const op of OPERATIONS) {
      expect(operation(op.key).body, op.key).toBe((endpoint(op.key) as EndpointDef).body !== undefined);
    }
  });

  it('checkQuery accepts and refuses what the zod query schema does, with the same messages', () => {
    const described = OPERATIONS.filter((op) => Object.keys(op.query).length > 0);
    expect(described.map((op) => op.key)).toEqual([
      'userExists',
      'listUsers',
      'listLoanRequests',
      'approveLoanRequest',
    ]);
    for (const op of described) {
      const names = Object.keys(op.query);
      const schema = querySchema(op.query);
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom(...names, 'other'), queryText), (query) => {
          const zod = schema.safeParse(query);
          const ours = checkQuery(op.query, query);
          const zodIssues = zod.success
            ? []
            : zod.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
          expect(ours).toEqual(zodIssues);
        }),
        { numRuns: 400 },
      );
    }
  });

  it('the e-mail pattern accepts what zod’s own does', () => {
    const text = fc.oneof(fc.emailAddress(), fc.string({ maxLength: 30 }), queryText);
    fc.assert(
      fc.property(text, (email) => {
        expect(EMAIL_PATTERN.test(email)).toBe(z.regexes.email.test(email));
      }),
      { numRuns: 2000 },
    );
  });

  it('isEnvelope agrees with the zod Envelope schema on any JSON', () => {
    const status = fc.constantFrom('success', 'error', 'exists', 'no-access', 'SUCCESS', '', 'ok');
    const envelopeLike = fc.record(
      {
        status: fc.oneof(status, fc.jsonValue()),
        message: fc.oneof(fc.string(), fc.jsonValue()),
        data: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(envelopeLike, fc.jsonValue()), (json) => {
        expect(isEnvelope(json)).toBe(Envelope.safeParse(json).success);
      }),
      { numRuns: 1000 },
    );
  });
});
