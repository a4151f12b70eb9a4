/**
 * `--fields` checked against the contract's record before a command changes anything. Apart from
 * src/output/print.ts because it reads the zod schemas: printing a reply must not load zod
 * (bench/README.md, start-up of a network command).
 */
import * as z from 'zod';
import {
  BankDetailsRecord,
  BusinessRecord,
  DocumentRecord,
  EmploymentRecord,
  GuarantorRecord,
  LoanRequest,
  UserCreateReply,
} from '../contract/schemas.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../errors.js';
import { COLUMNS, type ResourceKind } from '../output/columns.js';
import { resolveOutputSettings } from '../output/settings.js';

const RECORDS: Partial<Record<ResourceKind, z.ZodObject>> = {
  loanRequest: LoanRequest,
  user: UserCreateReply.extend({ status: z.string() }),
  bankDetails: BankDetailsRecord,
  guarantor: GuarantorRecord,
  employment: EmploymentRecord,
  document: DocumentRecord,
  business: BusinessRecord,
};

/**
 * For commands that change something: a `--fields` name that the contract's record does not have
 * is exit 2 *before* the request is sent. (The renderer checks the same after the reply, which
 * would be after the loan request was approved or deleted — and a script would retry it.)
 */
export function checkFieldsBeforeSending(deps: Deps, kind: ResourceKind): void {
  const settings = resolveOutputSettings(deps.globals, deps.env, deps.io);
  const schema = RECORDS[kind];
  if (!settings.fields || settings.raw || !schema) return;
  const known = new Set<string>(COLUMNS[kind].list.map((column) => column.key));
  for (const [key, inner] of Object.entries(schema.shape)) {
    known.add(key);
    if (inner instanceof z.ZodObject) for (const nested of Object.keys(inner.shape)) known.add(`${key}.${nested}`);
  }
  const unknown = settings.fields.filter((field) => !known.has(field));
  if (unknown.length > 0) {
    throw new UsageError(
      `--fields: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((field) => `"${field}"`).join(', ')}; nothing was sent.`,
      `Valid fields: ${[...known].join(', ')}.`,
    );
  }
}
