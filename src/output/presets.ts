/**
 * `--fields @NAME`: named lists of fields (src/output/field-names.ts `expandPresets`), attached to
 * their column set in ./columns.ts. Alone in this file so that `--help` names them without loading
 * the columns.
 */

/** The presets of a loan request list (`loan list`). */
export const LOAN_REQUEST_PRESETS = {
  // A spreadsheet of the loans, with whom to call about each (docs/guide.md, "Spreadsheets").
  export: [
    'id',
    'reference',
    'fullname',
    'borrower_email',
    'borrower_phone',
    'amount',
    'status',
    'lender_status',
    'user_status',
    'terms.approved_amount',
    'terms.estimated_repayment',
    'created_at',
    'submitted_at',
    'approved_at',
  ],
} as const satisfies Readonly<Record<string, readonly string[]>>;
