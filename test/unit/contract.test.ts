import { describe, expect, it } from 'vitest';
import { ENDPOINTS, endpoint, fillPath } from '../../src/contract/endpoints.js';
import { LoanRequest, UserCreateReply, ZERO_TIMESTAMP } from '../../src/contract/schemas.js';

const zeroTerms = {
  approved_amount: 0,
  rate: 0,
  tenure: 0,
  tenured_in: '',
  rate_type: '',
  grace_period: 0,
  exclude_weekends: false,
  zero_interest: false,
  estimated_repayment: 0,
  note: '',
};

function loanRequest(overrides: Record<string, unknown> = {}) {
  const timestamps = Object.fromEntries(
    [
      'declined_at',
      'final_approval_date',
      'approved_at',
      'user_accepted_date',
      'user_declined_date',
      'archived_date',
      'unarchived_at',
      'disbursed_at',
      'submitted_at',
      'deleted_at',
    ].map((name) => [name, ZERO_TIMESTAMP]),
  );
  return {
    id: 1,
    user_id: 2,
    org_id: 3,
    product_id: 4,
    product_name: 'Working capital',
    product_slug: 'working-capital',
    lender_name: 'Demo Lender',
    reference: 'LR-1',
    fullname: 'Ada Obi',
    amount: 50000,
    purpose: 'stock',
    terms: zeroTerms,
    status: 'saved',
    active: true,
    lender_status: 'saved',
    user_status: 'saved',
    debit_mandate_next_step: 'setup',
    ...timestamps,
    created_at: '2026-11-22T04:27:21.123Z',
    updated_at: '2026-11-22T05:27:21.5+01:00',
    ...overrides,
  };
}

describe('contract', () => {
  it('gives every operation of spec section 4 one row with a unique key and method+path', () => {
    expect(new Set(ENDPOINTS.map((e) => e.key)).size).toBe(ENDPOINTS.length);
    expect(new Set(ENDPOINTS.map((e) => `${e.method} ${e.path}`)).size).toBe(ENDPOINTS.length);
    for (const e of ENDPOINTS) {
      expect(e.path.startsWith('/api/v1/')).toBe(true);
      const placeholders = [...e.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
      expect(placeholders).toEqual([...e.pathParams]);
    }
  });

  it('uses the paths chosen for the operations the spec leaves open', () => {
    expect(endpoint('addBusinessInfo').path).toBe('/api/v1/loan_request/:id/business');
    expect(endpoint('getBankDetails')).toMatchObject({ method: 'GET', path: '/api/v1/loan_request/:id/bank_details' });
    expect(endpoint('getEmployment')).toMatchObject({ method: 'GET', path: '/api/v1/loan_request/:id/employment' });
  });

  it('fills path parameters, encoding them', () => {
    expect(fillPath('/api/v1/user/:user_id/loan_request', { user_id: 7 })).toBe('/api/v1/user/7/loan_request');
    expect(fillPath('/api/v1/loan_request/:id', { id: 'a/b' })).toBe('/api/v1/loan_request/a%2Fb');
  });

  it('accepts unknown reply fields but rejects known fields of the wrong type', () => {
    expect(LoanRequest.safeParse(loanRequest({ brand_new_field: { x: 1 } })).success).toBe(true);
    expect(LoanRequest.safeParse(loanRequest({ amount: '50000' })).success).toBe(false);
    expect(LoanRequest.safeParse(loanRequest({ submitted_at: 'yesterday' })).success).toBe(false);
  });

  it('has no id in the create-user reply', () => {
    expect(Object.keys(UserCreateReply.shape)).not.toContain('id');
  });
});
