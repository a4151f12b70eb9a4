/**
 * The approval terms the guided flow asks for before it shows the repayment schedule, each checked
 * as typed (the contract's schema, and the limits of src/repayment: the longest tenure, the
 * longest grace period, not more than the amount requested).
 */
import type { BodyOf } from '../../contract/fields.js';
import {
  FREQUENCIES,
  type Frequency,
  type LoanRequest,
  RATE_TYPES,
  type RateType,
  TENURED_IN,
  type TenuredIn,
} from '../../contract/schemas.js';
import {
  parseAmount,
  parseNonNegativeNumber,
  parsePositiveInt,
  parseText,
  parseWholeNumber,
} from '../../input/values.js';
import { summariseTerms } from '../../output/schedule.js';
import { formatMoney, UNIT_SINGULAR } from '../../output/values.js';
import { ask, askRequired, choose } from '../../prompts/ask.js';
import type { Prompter } from '../../prompts/prompter.js';
import { UNITS_PER_YEAR } from '../../repayment/annual-rate.js';
import { MAX_GRACE_PERIOD_DAYS, MAX_TENURE, repaymentTermsFromApproval } from '../../repayment/index.js';
import { typedBody } from './prompts.js';

const ApprovalTerms = typedBody('approveLoanRequest');
/** The terms of an approval, as the field table says. */
type ApprovalTerms = BodyOf<'approveLoanRequest'>;

const RATE_TYPE_HELP: Record<RateType, string> = {
  'simple-interest': 'flat: rate% of the principal per tenure unit, for the whole tenure',
  'compound-interest': 'reducing balance: equal instalments, interest on what is still owed',
  'fixed-amount': 'the rate is the interest in currency for the whole loan',
};

export async function askTerms(prompter: Prompter, loan: LoanRequest): Promise<ApprovalTerms> {
  const shape = ApprovalTerms.shape;
  const approvedAmount = await askRequired(prompter, {
    label: 'Approved amount',
    parse: parseAmount,
    schema: shape.approved_amount,
    default: String(loan.amount),
    check: (value) =>
      value <= loan.amount ||
      `Approved amount must not be more than the amount requested (${formatMoney(loan.amount)}).`,
  });
  const tenuredIn = await choose<TenuredIn>(
    prompter,
    'Tenure in',
    TENURED_IN.map((unit) => ({ value: unit, name: unit })),
    { default: 'months' },
  );
  const tenure = await askRequired(prompter, {
    label: 'Tenure',
    hint: `number of ${tenuredIn}`,
    parse: parsePositiveInt,
    schema: shape.tenure,
    check: (value) =>
      value <= MAX_TENURE[tenuredIn] || `Tenure must be at most ${MAX_TENURE[tenuredIn]} ${tenuredIn} (100 years).`,
  });
  const rateType = await choose<RateType>(
    prompter,
    'Rate type',
    RATE_TYPES.map((type) => ({ value: type, name: type, description: RATE_TYPE_HELP[type] })),
    { default: 'simple-interest' },
  );
  const unit = UNIT_SINGULAR[tenuredIn];
  const rate = await askRequired(prompter, {
    label: rateType === 'fixed-amount' ? 'Interest for the whole loan' : 'Rate',
    // The API takes the rate per tenure unit; operators think in yearly rates: the hint converts.
    hint:
      rateType === 'fixed-amount'
        ? 'an amount, e.g. 15000'
        : `% per ${unit}, e.g. 2 (a yearly rate ÷ ${UNITS_PER_YEAR[tenuredIn]})`,
    parse: parseNonNegativeNumber,
    schema: shape.rate,
  });
  const frequency = await choose<Frequency>(
    prompter,
    'Repayment frequency',
    FREQUENCIES.map((value) => ({ value, name: value === 'weekely' ? 'weekly' : value })),
    { default: 'monthly' },
  );
  const gracePeriod = await askRequired(prompter, {
    label: 'Grace period',
    hint: 'days',
    parse: parseWholeNumber,
    schema: shape.grace_period,
    default: '0',
    check: (value) => value <= MAX_GRACE_PERIOD_DAYS || `Grace period must be at most ${MAX_GRACE_PERIOD_DAYS} days.`,
  });
  const excludeWeekends = await prompter.confirm('Move due dates off weekends?', { default: false });
  const note = await ask(prompter, { label: 'Note', parse: parseText, optional: true });
  return ApprovalTerms.parse({
    approved_amount: approvedAmount,
    rate,
    tenure,
    tenured_in: tenuredIn,
    rate_type: rateType,
    frequency,
    grace_period: gracePeriod,
    exclude_weekends: excludeWeekends,
    ...(note !== undefined && { note }),
  });
}

/** One line for the terms, as the approval question and the confirmation say them. */
export function describeApproval(terms: ApprovalTerms): string {
  return summariseTerms(repaymentTermsFromApproval(terms));
}
