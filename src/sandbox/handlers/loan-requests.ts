/** Handlers of the loan request itself: create, list, update, delete, progress, submit, approve. */
import { estimatedRepayment, repaymentTermsFromApproval, validateRepaymentTerms } from '../../repayment/index.js';
import { fail, JsonText, refuse } from '../envelope.js';
import { newReference } from '../secrets.js';
import * as serialize from '../serialize.js';
import { invalidFieldsMessage } from '../validation.js';
import { loanRequestJson, ok, PROGRESS } from './common.js';
import type { HandlersOf } from './types.js';

/** Loan requests list: default and largest `limit` (a larger one is clamped). */
const LOAN_REQUESTS_DEFAULT_LIMIT = 20;
const LOAN_REQUESTS_MAX_LIMIT = 100;

type LoanRequestKey =
  | 'createLoanRequest'
  | 'listLoanRequests'
  | 'updateLoanRequest'
  | 'deleteLoanRequest'
  | 'getProgress'
  | 'submitLoanRequest'
  | 'approveLoanRequest';

export const LOAN_REQUEST_HANDLERS: HandlersOf<LoanRequestKey> = {
  createLoanRequest: {
    run: (ctx) => {
      const id = ctx.repos.loanRequests.create({
        org_id: ctx.caller.org_id,
        user_id: ctx.user.id,
        product_id: ctx.product.id,
        reference: newReference('loanRequest'),
        amount: ctx.body.amount,
        purpose: ctx.body.purpose,
        now: ctx.stamp,
      });
      return ok('Loan request created successfully', loanRequestJson(ctx, id));
    },
  },

  listLoanRequests: {
    precheck: (raw) => {
      if (raw.direction === undefined || raw.direction === '') throw refuse('listLoanRequests', 'directionMissing');
    },
    inspect: ({ query }) =>
      typeof query.direction === 'string' && !['ASC', 'DESC'].includes(query.direction.toUpperCase())
        ? ['direction (must be ASC or DESC)']
        : [],
    run: (ctx) => {
      const direction = (ctx.query.direction ?? 'ASC').toUpperCase() === 'DESC' ? 'DESC' : 'ASC';
      const limit = Math.min(ctx.query.limit ?? LOAN_REQUESTS_DEFAULT_LIMIT, LOAN_REQUESTS_MAX_LIMIT);
      const given = ctx.query.cursor ?? 0;
      // No cursor (or 0) starts at the beginning of the chosen order.
      const cursor = given === 0 && direction === 'DESC' ? Number.MAX_SAFE_INTEGER : given;
      const page = [ctx.caller.org_id, ctx.product.id, direction, cursor, limit] as const;
      const rows = ctx.repos.loanRequests.pageJson(...page);
      // A row SQLite cannot write as JSON.stringify would (a number of 16 or 17 digits, a list):
      // the page is written the usual way instead.
      const items = rows.every((row) => row.json !== null)
        ? rows.map((row) => row.json)
        : ctx.repos.loanRequests.page(...page).map((row) => JSON.stringify(serialize.loanRequest(row)));
      return ok(
        'Loan requests retrieved successfully',
        JsonText.object({ loan_requests: new JsonText(`[${items.join(',')}]`), cursor: rows.at(-1)?.id ?? 0 }),
      );
    },
  },

  updateLoanRequest: {
    run: (ctx) => {
      ctx.repos.loanRequests.updatePurpose(ctx.loanRequest.id, ctx.body.purpose, ctx.stamp);
      return ok('Loan request updated successfully', loanRequestJson(ctx, ctx.loanRequest.id));
    },
  },

  deleteLoanRequest: {
    run: (ctx) => {
      ctx.repos.loanRequests.softDelete(ctx.loanRequest.id, ctx.stamp);
      return ok('Loan request deleted successfully', null);
    },
  },

  getProgress: {
    run: (ctx) => ok('Progress retrieved successfully', ctx.loanRequest.progress ?? PROGRESS.none),
  },

  submitLoanRequest: {
    run: (ctx) => {
      // The move itself is the state table's (src/contract/table/stages.ts), made before this runs.
      const lr = ctx.loanRequest;
      if (ctx.repos.attachments.supportingInformationCount(lr.id) === 0) {
        throw refuse('submitLoanRequest', 'nothingAttached');
      }
      return ok('Loan request submitted successfully', null, loanRequestJson(ctx, lr.id));
    },
  },

  approveLoanRequest: {
    check: ({ body }) =>
      validateRepaymentTerms(repaymentTermsFromApproval(body)).map((problem) => {
        const at = problem.indexOf(': ');
        const field = problem.slice(0, at) === 'principal' ? 'approved_amount' : problem.slice(0, at);
        return `${field} (${problem.slice(at + 2)})`;
      }),
    run: (ctx) => {
      const lr = ctx.loanRequest;
      const terms = ctx.body;
      if (terms.approved_amount > lr.amount) {
        throw fail(400, invalidFieldsMessage([`approved_amount (must not exceed the amount requested, ${lr.amount})`]));
      }
      ctx.repos.loanRequests.approve(lr.id, {
        approved_amount: terms.approved_amount,
        rate: terms.rate,
        tenure: terms.tenure,
        tenured_in: terms.tenured_in,
        rate_type: terms.rate_type,
        frequency: terms.frequency,
        grace_period: terms.grace_period ?? 0,
        exclude_weekends: terms.exclude_weekends ? 1 : 0,
        zero_interest: terms.rate === 0 ? 1 : 0,
        estimated_repayment: estimatedRepayment(repaymentTermsFromApproval(terms, ctx.now)),
        note: terms.note ?? '',
        approved_by_id: ctx.caller.key_id,
        approved_by: `${ctx.caller.org_name} (${ctx.caller.via ?? 'API'})`,
        now: ctx.stamp,
      });
      return ok('Loan request approved successfully', loanRequestJson(ctx, lr.id));
    },
  },
};
