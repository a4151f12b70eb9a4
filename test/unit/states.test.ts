/**
 * The state table (src/contract/table/stages.ts, derived in src/contract/states.ts): typed by
 * operation key, a stage whatever marks it, the progress markers that follow the stages.
 */
import { describe, expect, it } from 'vitest';
import {
  informationProgress,
  progressAfter,
  refusalFor,
  STAGES,
  type StateTable,
  stageOf,
  stageSql,
} from '../../src/contract/states.js';
import { OPERATION_STAGES } from '../../src/contract/table/stages.js';

describe('the state table', () => {
  it('is typed by operation key: a misspelt key, or a refusal the row has no error reply for, does not compile', () => {
    // @ts-expect-error: no operation is called getProgres
    const typo: Partial<StateTable> = { getProgres: { from: 'any stage' } };
    // @ts-expect-error: getProgress has no error reply of its own to refuse with
    const refusal: Partial<StateTable> = { getProgress: { from: ['approved'], refusal: 'notApproved' } };
    expect([typo, refusal]).toHaveLength(2);
    expect(Object.keys(OPERATION_STAGES)).toContain('getProgress');
  });

  it('reads a stage from any of its marks: the state field, or the timestamp alone', () => {
    expect(stageOf({ status: 'saved', lender_status: 'saved', user_status: 'saved' })).toBe('created');
    expect(stageOf({ user_status: 'SUBMITTED' })).toBe('waiting');
    expect(stageOf({ user_status: 'saved', submitted_at: '2026-03-02T09:30:00.123456789+01:00' })).toBe('waiting');
    expect(stageOf({ user_status: 'saved', submitted_at: '0001-01-01T00:00:00.000000000Z' })).toBe('created');
    expect(stageOf({ user_status: 'submitted', approved_at: '2026-03-03T10:00:00Z' })).toBe('approved');
    expect(STAGES).toEqual(['created', 'waiting', 'approved']);
  });

  it('the product has no operation that needs a stage: the API refuses none by stage (spec 3)', () => {
    for (const key of Object.keys(OPERATION_STAGES))
      expect(refusalFor(key, { lender_status: 'approved' })).toBe(undefined);
  });

  it("a stage's progress marker replaces an earlier one, never a later one; attachments never replace a stage's", () => {
    expect(progressAfter('waiting', 'bank_details')).toBe('submitted');
    expect(progressAfter('waiting', 'approved')).toBe('approved');
    expect(progressAfter('approved', 'submitted')).toBe('approved');
    expect(informationProgress('submitted', 'guarantor')).toBe('submitted');
    expect(informationProgress('document', 'guarantor')).toBe('guarantor');
  });

  it('says "in a stage" in SQL as the queue index has it', () => {
    expect(stageSql('lr', 'waiting')).toBe("lr.user_status = 'submitted' AND lr.lender_status <> 'approved'");
    expect(stageSql('lr', 'created')).toBe("lr.user_status <> 'submitted' AND lr.lender_status <> 'approved'");
  });
});
