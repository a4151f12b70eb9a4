/**
 * The zod-free half of the contract (src/contract/operations.ts, vocabulary.ts) against the zod
 * half (endpoints.ts, schemas.ts): the CLI reads envelopes without zod, so its answers must be
 * zod's for any JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { carriesBody, OPERATIONS } from '../../src/contract/operations.js';
import { Envelope } from '../../src/contract/schemas.js';
import { isEnvelope } from '../../src/contract/vocabulary.js';

describe('operations without zod', () => {
  it('every operation of the table has its schemas, and says whether it carries a body', () => {
    expect(OPERATIONS.map((op) => op.key)).toEqual(ENDPOINTS.map((def) => def.key));
    for (const def of ENDPOINTS) expect(carriesBody(def.key), def.key).toBe(def.body !== undefined);
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
