/**
 * The state table (spec section 3): the stages of a loan request, and for every operation on one
 * the stages it may start from and the stage it moves it to. What a row holds and everything
 * derived from it: ../states.ts.
 *
 * Where neither the spec nor the real service's replies say an operation needs a stage, its row
 * says `'any stage'`, so the sandbox is as lenient as the service.
 */
import type { StageDef, StateTable } from '../states.js';

/**
 * The stages, in the order a loan request goes through them. A loan request is in the latest
 * stage one of whose marks it carries (a state field's value, a set timestamp or a true flag);
 * `progress` is the progress marker the stage sets (later markers stay).
 */
export const STAGE_ROWS = [
  { name: 'created', words: 'created', help: 'saved, not yet submitted by the borrower', marks: [] },
  {
    name: 'waiting',
    words: 'waiting for approval',
    help: 'submitted by the borrower, not yet approved (the approval queue)',
    // What `loan wait --until` and `--stage` also accept: the borrower's side of it.
    alias: 'submitted',
    marks: [{ field: 'user_status', value: 'submitted' }, { timestamp: 'submitted_at' }],
    progress: 'submitted',
  },
  {
    name: 'approved',
    words: 'approved',
    help: 'approved by a lender, with terms',
    marks: [{ field: 'lender_status', value: 'approved' }, { timestamp: 'approved_at' }],
    progress: 'approved',
  },
] as const satisfies readonly StageDef[];

/** Every operation on a loan request: where it may start, and the move it makes (if any). */
export const OPERATION_STAGES = {
  createLoanRequest: {
    from: 'nothing',
    to: 'created',
    writes: { status: 'saved', lender_status: 'saved', user_status: 'saved' },
  },
  updateLoanRequest: { from: 'any stage' },
  deleteLoanRequest: { from: 'any stage' },
  getProgress: { from: 'any stage' },
  // Spec 3 moves a `saved` one; submitting one already submitted answers it as it is.
  submitLoanRequest: { from: 'any stage', to: 'waiting', writes: { status: 'pending' }, again: 'unchanged' },
  approveLoanRequest: { from: 'any stage', to: 'approved' },
  uploadDocument: { from: 'any stage' },
  addBankDetails: { from: 'any stage' },
  getBankDetails: { from: 'any stage' },
  tokenizeLinker: { from: 'any stage' },
  addGuarantor: { from: 'any stage' },
  getGuarantors: { from: 'any stage' },
  addEmployment: { from: 'any stage' },
  getEmployment: { from: 'any stage' },
  addBusinessInfo: { from: 'any stage' },
} as const satisfies StateTable;
