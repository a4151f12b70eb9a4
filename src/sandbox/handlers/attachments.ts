/**
 * Handlers of what is attached to a loan request: bank details (and the linker tokenized from
 * them), business information, employment, guarantors, documents. Adding any of them moves the
 * loan request's progress marker (./common.ts) until it is submitted.
 */
import type { BodyOf } from '../../contract/fields.js';
import { informationProgress } from '../../contract/states.js';
import { refuse } from '../envelope.js';
import type { Owned } from '../repos/attachments.js';
import type { LoanRequestRow, Repos } from '../repos/index.js';
import { newLinkerId, newReference } from '../secrets.js';
import * as serialize from '../serialize.js';
import { loanRequestJson, ok, PROGRESS } from './common.js';
import type { HandlersOf } from './types.js';

type AttachmentKey =
  | 'addBankDetails'
  | 'getBankDetails'
  | 'tokenizeLinker'
  | 'addBusinessInfo'
  | 'addEmployment'
  | 'getEmployment'
  | 'addGuarantor'
  | 'getGuarantors'
  | 'uploadDocument';

export const ATTACHMENT_HANDLERS: HandlersOf<AttachmentKey> = {
  addBankDetails: {
    run: (ctx) => {
      const lr = ctx.loanRequest;
      ctx.repos.attachments.addBankDetails({
        ...ownedBy(lr),
        code: ctx.body.code,
        account_name: ctx.body.account_name,
        account_number: ctx.body.account_number ?? '',
        bank_name: ctx.body.bank_name ?? '',
        now: ctx.stamp,
      });
      markProgress(ctx, PROGRESS.bankDetails);
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

  tokenizeLinker: {
    run: (ctx) => {
      const accounts = ctx.repos.attachments.bankDetails(ctx.loanRequest.id);
      if (accounts.length === 0) {
        throw refuse('tokenizeLinker', 'noBankDetails');
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
        ...ownedBy(lr),
        ...businessRow(ctx.body),
        now: ctx.stamp,
      });
      markProgress(ctx, PROGRESS.business);
      const row = ctx.repos.attachments.business(lr.id);
      if (!row) throw new Error('business information vanished inside its own transaction');
      return ok('Business information added successfully', serialize.business(row));
    },
  },

  addEmployment: {
    run: (ctx) => {
      const lr = ctx.loanRequest;
      const added = ctx.repos.attachments.addEmployment({
        ...ownedBy(lr),
        ...ctx.body,
        now: ctx.stamp,
      });
      if (!added) {
        throw refuse('addEmployment', 'alreadyAdded');
      }
      markProgress(ctx, PROGRESS.employment);
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

  addGuarantor: {
    run: (ctx) => {
      const lr = ctx.loanRequest;
      ctx.repos.attachments.addGuarantor({
        ...ownedBy(lr),
        ...ctx.body,
        now: ctx.stamp,
      });
      markProgress(ctx, PROGRESS.guarantor);
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

  uploadDocument: {
    run: (ctx) => {
      const lr = ctx.loanRequest;
      ctx.repos.attachments.addDocument({
        ...ownedBy(lr),
        type: ctx.body.type,
        title: ctx.body.title,
        reference: newReference('document'),
        number: ctx.body.number,
        document_url: ctx.body.document_url,
        now: ctx.stamp,
      });
      markProgress(ctx, PROGRESS.document);
      return ok('Document uploaded successfully', ctx.repos.attachments.documents(lr.id).map(serialize.document), null);
    },
  },
};

/** The owner columns (`Owned`) of a record attached to this loan request. */
function ownedBy(lr: LoanRequestRow): Owned {
  return { org_id: lr.org_id, user_id: lr.user_id, loan_request_id: lr.id };
}

/** Moves the loan request's progress marker to what was just attached (until it is submitted). */
function markProgress(ctx: { repos: Repos; loanRequest: LoanRequestRow; stamp: string }, marker: string): void {
  const lr = ctx.loanRequest;
  ctx.repos.loanRequests.setProgress(lr.id, informationProgress(lr.progress, marker), ctx.stamp);
}

/** `physical_location` arrives as text and is returned as a bool: see docs/sandbox.md#supporting-information-and-progress. */
function physicalLocation(value: string | undefined): boolean {
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
