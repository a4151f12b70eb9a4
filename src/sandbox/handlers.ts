/**
 * One handler per operation of the contract table, keyed by endpoint key. app.ts generates the
 * routes from ENDPOINTS and, before a handler runs, has already: checked the API key, required
 * `product-id` where the table says so, validated query and body with the contract's schemas, and
 * resolved the product, user and loan request that the caller owns (anything else is no-access).
 * `run` is synchronous and, for a writing request, runs inside the request's one transaction.
 */
import type { z } from 'zod';
import type { Endpoint, EndpointKey } from '../contract/endpoints.js';
import type { BodyOf } from '../contract/fields.js';
import { estimatedRepayment, repaymentTermsFromApproval, validateRepaymentTerms } from '../repayment/index.js';
import { createdRange } from './created-range.js';
import { fail, MESSAGES, type Outcome } from './envelope.js';
import type { KeyOwner, LoanRequestRow, ProductRow, Repos, UserRow } from './repos/index.js';
import { hashPassword, newLinkerId, newReference } from './secrets.js';
import * as serialize from './serialize.js';
import { invalidFieldsMessage } from './validation.js';

/** Users list page size (`pages` is 1-based). */
export const USERS_PAGE_SIZE = 50;
/** Loan requests list: default and largest `limit` (a larger one is clamped). */
export const LOAN_REQUESTS_DEFAULT_LIMIT = 20;
export const LOAN_REQUESTS_MAX_LIMIT = 100;

/**
 * Progress markers. Adding supporting information sets the marker of what was added, until the
 * loan request is submitted; submit sets `submitted` (unless already approved); approve sets
 * `approved`. A loan request with no marker yet has no `progress` field, and GET progress answers `new`.
 */
export const PROGRESS = {
  none: 'new',
  bankDetails: 'bank_details',
  business: 'business_information',
  employment: 'employment',
  guarantor: 'guarantor',
  document: 'document',
  submitted: 'submitted',
  approved: 'approved',
} as const;

function informationProgress(current: string | null, marker: string): string {
  return current === PROGRESS.submitted || current === PROGRESS.approved ? current : marker;
}

type Query<K extends EndpointKey> = z.infer<Endpoint<K>['query']>;
type Body<K extends EndpointKey> = Endpoint<K> extends { body: infer B extends z.ZodType } ? z.infer<B> : undefined;
type PathParam<K extends EndpointKey> = Endpoint<K>['pathParams'][number];

export type Context<K extends EndpointKey> = {
  repos: Repos;
  caller: KeyOwner;
  now: Date;
  /** `now` as the API writes a set timestamp. */
  stamp: string;
  query: Query<K>;
  body: Body<K>;
} & (Endpoint<K>['productId'] extends true ? { product: ProductRow } : unknown) &
  ('user_id' extends PathParam<K> ? { user: UserRow } : unknown) &
  ('id' extends PathParam<K> ? { loanRequest: LoanRequestRow } : unknown);

/** What the handler checks of a valid query/body beyond the schema: extra `field (problem)` parts. */
export interface Checkable<K extends EndpointKey> {
  query: Query<K>;
  body: Body<K>;
  caller: KeyOwner;
}

/** The query and body as they arrived (before the schemas), with the caller. */
export interface RawInput {
  query: Record<string, unknown>;
  body: unknown;
  caller: KeyOwner;
}

export interface Handler<K extends EndpointKey, P = undefined> {
  /** Checks of the raw query made before the schemas run, answering in their own words. */
  precheck?: (rawQuery: Record<string, unknown>) => void;
  /** More `field (problem)` parts for the one 400 message, from the raw input: run with the schemas. */
  inspect?: (input: RawInput) => string[];
  /** More `field (problem)` parts, run once the schemas passed. */
  check?: (input: Checkable<K>) => string[];
  /** Asynchronous work done before the transaction opens (e.g. hashing a password). */
  prepare?: (input: Checkable<K>) => Promise<P>;
  run: (ctx: Context<K>, prepared: P) => Outcome;
}

/** What each handler's `prepare` hands to its `run`: only createUser prepares (the password hash). */
type Prepared<K extends EndpointKey> = K extends 'createUser' ? string : undefined;
type HandlerMap = { [K in EndpointKey]: Handler<K, Prepared<K>> };

function ok(message: string, data: unknown, data1?: unknown): Outcome {
  return data1 === undefined ? { status: 'success', message, data } : { status: 'success', message, data, data1 };
}

function reload(ctx: { repos: Repos; caller: KeyOwner }, id: number): LoanRequestRow {
  const row = ctx.repos.loanRequests.findInOrg(ctx.caller.org_id, id);
  if (!row) throw new Error(`loan request ${id} vanished inside its own transaction`);
  return row;
}

function loanRequestJson(ctx: { repos: Repos; caller: KeyOwner }, id: number) {
  return serialize.loanRequest(reload(ctx, id));
}

/** `physical_location` arrives as text and is returned as a bool: see README "Sandbox behaviour". */
export function physicalLocation(value: string | undefined): boolean {
  const text = (value ?? '').trim().toLowerCase();
  return !['', 'no', 'n', 'false', '0', 'none', 'online', 'virtual'].includes(text);
}

function businessRow(body: BodyOf<'addBusinessInfo'>) {
  return {
    name: body.name,
    role: body.role,
    industry: body.industry,
    description: body.description,
    registered: body.registered ? 1 : 0,
    registration_number: body.registration_number ?? '',
    established_on: body.established_on ?? '',
    physical_location: physicalLocation(body.physical_location) ? 1 : 0,
    number_of_locations: body.number_of_locations ?? 0,
    location_status: body.location_status ?? '',
    average_monthly_income: body.average_monthly_income ?? 0,
    last_twelve_months_income: body.last_twelve_months_income ?? 0,
    primary_payments_collection_method: body.primary_payments_collection_method ?? '',
    number_of_employees: body.number_of_employees === undefined ? 0 : Number.parseInt(body.number_of_employees, 10),
    monthly_salary_cost: body.monthly_salary_cost ?? 0,
    annual_rent_cost: body.annual_rent_cost ?? 0,
    monthly_electricity_cost: body.monthly_electricity_cost ?? 0,
    monthly_ads_cost: body.monthly_ads_cost ?? 0,
    monthly_marketing_cost: body.monthly_marketing_cost ?? 0,
  };
}

function isDate(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
}

export const HANDLERS: HandlerMap = {
  createUser: {
    prepare: ({ body }) => hashPassword(body.password),
    run: (ctx, passwordHash: string) => {
      const { body, caller } = ctx;
      const id = ctx.repos.users.create({
        org_id: caller.org_id,
        firstname: body.firstname,
        lastname: body.lastname,
        email: body.email,
        phone: body.phone,
        gender: body.gender,
        password_hash: passwordHash,
        reference: newReference('user'),
        source: 'api',
        now: ctx.stamp,
      });
      if (id === undefined) {
        const existing = ctx.repos.users.findByEmail(caller.org_id, body.email);
        if (!existing) throw new Error('e-mail reported taken but no user has it');
        return {
          status: 'exists',
          message: 'A user with this email already exists',
          data: serialize.userCreateReply(existing),
        };
      }
      const user = ctx.repos.users.findInOrg(caller.org_id, id);
      if (!user) throw new Error(`user ${id} vanished inside its own transaction`);
      return ok('User created successfully', serialize.userCreateReply(user));
    },
  },

  userExists: {
    run: (ctx) => {
      const found = ctx.repos.users.findByEmail(ctx.caller.org_id, ctx.query.email) !== undefined;
      return ok(found ? 'User exists' : 'User does not exist', found);
    },
  },

  listUsers: {
    inspect: ({ query }) =>
      isDate(query.start) && isDate(query.end) && query.end < query.start ? ['end (must not be before start)'] : [],
    run: (ctx) => {
      const { start, end, pages = 1 } = ctx.query;
      const offset = (pages - 1) * USERS_PAGE_SIZE;
      if (!Number.isSafeInteger(offset)) return ok('Users retrieved successfully', []);
      // Without a window a page is a seek, the same cost at any page and any size; only a window,
      // when one is given, pays for the users inside it.
      if (start === undefined && end === undefined) {
        const page = ctx.repos.users.page(ctx.caller.org_id, offset, USERS_PAGE_SIZE);
        return ok('Users retrieved successfully', page.map(serialize.userListItem));
      }
      const { from, before } = createdRange(start, end);
      const rows = ctx.repos.users.list(ctx.caller.org_id, from, before, USERS_PAGE_SIZE, offset);
      return ok('Users retrieved successfully', rows.map(serialize.userListItem));
    },
  },

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
      if (raw.direction === undefined || raw.direction === '') throw fail(400, MESSAGES.directionMissing);
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
      const rows = ctx.repos.loanRequests.page(ctx.caller.org_id, ctx.product.id, direction, cursor, limit);
      return ok('Loan requests retrieved successfully', {
        loan_requests: rows.map(serialize.loanRequest),
        cursor: rows.at(-1)?.id ?? 0,
      });
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

  tokenizeLinker: {
    run: (ctx) => {
      const accounts = ctx.repos.attachments.bankDetails(ctx.loanRequest.id);
      if (accounts.length === 0) {
        throw fail(500, `${MESSAGES.somethingWentWrong}: the loan request has no bank details; add them first`);
      }
      const linkerIds = accounts.map((account) => {
        if (account.linker_id) return account.linker_id;
        const linkerId = newLinkerId();
        ctx.repos.attachments.setLinkerId(account.id, linkerId, ctx.stamp);
        return linkerId;
      });
      ctx.repos.loanRequests.tokenize(ctx.loanRequest.id, linkerIds, ctx.stamp);
      return ok('Linker tokenized successfully', loanRequestJson(ctx, ctx.loanRequest.id));
    },
  },

  uploadDocument: {
    run: (ctx) => {
      const lr = ctx.loanRequest;
      ctx.repos.attachments.addDocument({
        org_id: lr.org_id,
        user_id: lr.user_id,
        loan_request_id: lr.id,
        type: ctx.body.type,
        title: ctx.body.title,
        reference: newReference('document'),
        number: ctx.body.number,
        document_url: ctx.body.document_url,
        now: ctx.stamp,
      });
      ctx.repos.loanRequests.setProgress(lr.id, informationProgress(lr.progress, PROGRESS.document), ctx.stamp);
      return ok('Document uploaded successfully', ctx.repos.attachments.documents(lr.id).map(serialize.document), null);
    },
  },

  getProgress: {
    run: (ctx) => ok('Progress retrieved successfully', ctx.loanRequest.progress ?? PROGRESS.none),
  },

  addBusinessInfo: {
    inspect: ({ body, caller }) => {
      const orgId = (body as { org_id?: unknown } | null)?.org_id;
      return Number.isInteger(orgId) && orgId !== caller.org_id
        ? [`org_id (must be your organisation id, ${caller.org_id})`]
        : [];
    },
    run: (ctx) => {
      const lr = ctx.loanRequest;
      ctx.repos.attachments.putBusiness({
        org_id: lr.org_id,
        user_id: lr.user_id,
        loan_request_id: lr.id,
        ...businessRow(ctx.body),
        now: ctx.stamp,
      });
      ctx.repos.loanRequests.setProgress(lr.id, informationProgress(lr.progress, PROGRESS.business), ctx.stamp);
      const row = ctx.repos.attachments.business(lr.id);
      if (!row) throw new Error('business information vanished inside its own transaction');
      return ok('Business information added successfully', serialize.business(row));
    },
  },

  addBankDetails: {
    run: (ctx) => {
      const lr = ctx.loanRequest;
      ctx.repos.attachments.addBankDetails({
        org_id: lr.org_id,
        user_id: lr.user_id,
        loan_request_id: lr.id,
        code: ctx.body.code,
        account_name: ctx.body.account_name,
        account_number: ctx.body.account_number ?? '',
        bank_name: ctx.body.bank_name ?? '',
        now: ctx.stamp,
      });
      ctx.repos.loanRequests.setProgress(lr.id, informationProgress(lr.progress, PROGRESS.bankDetails), ctx.stamp);
      return ok('Bank details added successfully', null, loanRequestJson(ctx, lr.id));
    },
  },

  getBankDetails: {
    run: (ctx) =>
      ok(
        'Bank details retrieved successfully',
        ctx.repos.attachments.bankDetails(ctx.loanRequest.id).map(serialize.bankDetails),
      ),
  },

  submitLoanRequest: {
    run: (ctx) => {
      const lr = ctx.loanRequest;
      if (ctx.repos.attachments.supportingInformationCount(lr.id) === 0) {
        throw fail(
          400,
          'The loan request has no supporting information. Add bank details, business information, employment information, a guarantor or a document before submitting',
        );
      }
      // Submitting again is harmless: the loan request is returned as it is (PUT is idempotent).
      if (lr.user_status !== 'submitted') {
        const progress = lr.progress === PROGRESS.approved ? PROGRESS.approved : PROGRESS.submitted;
        ctx.repos.loanRequests.submit(lr.id, progress, ctx.stamp);
      }
      return ok('Loan request submitted successfully', null, loanRequestJson(ctx, lr.id));
    },
  },

  addGuarantor: {
    run: (ctx) => {
      const lr = ctx.loanRequest;
      ctx.repos.attachments.addGuarantor({
        org_id: lr.org_id,
        user_id: lr.user_id,
        loan_request_id: lr.id,
        ...ctx.body,
        now: ctx.stamp,
      });
      ctx.repos.loanRequests.setProgress(lr.id, informationProgress(lr.progress, PROGRESS.guarantor), ctx.stamp);
      return ok('Guarantor added successfully', ctx.repos.attachments.guarantors(lr.id).map(serialize.guarantor), null);
    },
  },

  getGuarantors: {
    run: (ctx) =>
      ok(
        'Guarantors retrieved successfully',
        ctx.repos.attachments.guarantors(ctx.loanRequest.id).map(serialize.guarantor),
      ),
  },

  addEmployment: {
    run: (ctx) => {
      const lr = ctx.loanRequest;
      const added = ctx.repos.attachments.addEmployment({
        org_id: lr.org_id,
        user_id: lr.user_id,
        loan_request_id: lr.id,
        ...ctx.body,
        now: ctx.stamp,
      });
      if (!added) {
        throw fail(
          500,
          'Employment information was already added to this loan request. It can only be updated, not added again',
        );
      }
      ctx.repos.loanRequests.setProgress(lr.id, informationProgress(lr.progress, PROGRESS.employment), ctx.stamp);
      const row = ctx.repos.attachments.employment(lr.id);
      if (!row) throw new Error('employment vanished inside its own transaction');
      return ok('Employment information added successfully', serialize.employment(row));
    },
  },

  getEmployment: {
    run: (ctx) => {
      const row = ctx.repos.attachments.employment(ctx.loanRequest.id);
      return row
        ? ok('Employment information retrieved successfully', serialize.employment(row))
        : ok('The loan request has no employment information yet', null);
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
        progress: PROGRESS.approved,
        now: ctx.stamp,
      });
      return ok('Loan request approved successfully', loanRequestJson(ctx, lr.id));
    },
  },
};
