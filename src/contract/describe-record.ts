/**
 * What the record descriptions (./record-table.ts, ./attached-records.ts) are written with: the
 * function that keeps an entry's literal types and checks its columns, and the fields and runs of
 * fields several records share. ./records.ts says what an entry holds.
 */
import type { ColumnPath, RecordSpec, TableSpec } from './records.js';
import { ZERO_TIMESTAMP } from './vocabulary.js';

/** A record's entry, its literal types kept (the schemas and row types are read off them) and its columns checked. */
export function describe<const R extends RecordSpec>(spec: R & { table?: TableSpec<ColumnPath<R['fields']>> }): R {
  return spec;
}

export const ID = { kind: 'id', label: 'ID' } as const;
export const OWNER_ID = { kind: 'id' } as const;
export const TEXT = { kind: 'text' } as const;
export const TIMESTAMP = { kind: 'timestamp' } as const;
/** A date the sandbox never sets: always the API's zero timestamp. */
export const NEVER_SET = { kind: 'timestamp', sandbox: { always: ZERO_TIMESTAMP } } as const;
export const NEVER_ANSWERED = { sandbox: 'never' } as const;

// Runs of fields several records share, in the order the API writes them.
/** What a record attached to a loan request starts with (documents, bank details, guarantors). */
export const ATTACHED = { id: ID, user_id: OWNER_ID, org_id: OWNER_ID, loan_request_id: OWNER_ID } as const;

// 2.7 Custom field: no sandbox record has one.
export const CUSTOM_FIELD = describe({
  fields: {
    label: TEXT,
    field: TEXT,
    data_type: TEXT,
    string_value: TEXT,
    number_value: { kind: 'number' },
    boolean_value: { kind: 'bool' },
    is_money: { kind: 'bool' },
    is_custom: { kind: 'bool' },
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
  },
});

/** The custom fields of a record, which the sandbox never has. */
export const WITH_CUSTOM_FIELDS = {
  has_custom_fields: { kind: 'bool', sandbox: { always: false } },
  custom_fields: { kind: 'records', of: CUSTOM_FIELD, nullable: true, sandbox: { always: null } },
} as const;
