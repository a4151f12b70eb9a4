/**
 * `loan create --from`: one loan request a row. Fields: `user` (an id or an e-mail) or `user_id`,
 * `amount`, `purpose`, and optionally `product` (else `--product`, LOANCTL_PRODUCT_ID or the
 * profile's) — checked by the same parsers as `loan create`'s flags.
 *
 * Every row is a loan request: two identical rows are two requests. What makes a re-run safe is the
 * journal (./journal.ts), which skips the rows acknowledged before. Only a row whose outcome is
 * unknown (sent, no answer) is looked up on the server: the product's loan requests are read once
 * (100 a page, the next fetched while one is indexed) and the row takes the oldest loan request
 * with its user, amount and purpose that no row of the journal has — else it is sent again.
 *
 * A row acknowledged in an earlier run is skipped only once the server shows that loan request
 * still there with that user (`verify`: one request).
 *
 * E-mails are resolved to user ids as `loan create --user EMAIL` does (src/domain/users.ts: the
 * local index, else `user exists` and a search), once per distinct e-mail, the answers kept for the
 * latest RESOLVED_KEPT e-mails: no walk of the user list before the first row, and memory that
 * does not grow with the number of borrowers.
 */
import { createHash } from 'node:crypto';
import type { BodyOf } from '../contract/fields.js';
import { findLoanRequest } from '../domain/loan-requests.js';
import { loanRequestPages } from '../domain/pages.js';
import { type FindUserOptions, findUserByEmail } from '../domain/users.js';
import { NoAccessError, UsageError } from '../errors.js';
import type { ApiClient } from '../http/api-client.js';
import { buildOperationBody } from '../input/body.js';
import { parseId, parseUserRef, type UserRef } from '../input/values.js';
import type { BulkTask, RowOutcome } from './engine.js';
import { bodyColumns, fieldText, requiredColumns, rowFields } from './fields.js';

/** The borrower (`user`: an id or e-mail, or `user_id`), the body's fields, and the product. */
export const LOAN_FIELDS = ['user', 'user_id', ...bodyColumns('createLoanRequest'), 'product'];
/** The columns a CSV of loan requests must have: the borrower (either name), and the body's required fields. */
export const LOAN_REQUIRED = [['user', 'user_id'], ...requiredColumns('createLoanRequest')];

export interface LoanRow {
  user: UserRef;
  productId: number | undefined;
  body: BodyOf<'createLoanRequest'>;
}

export interface LoanTaskOptions {
  /** The product of rows without a `product` field; undefined → such rows fail, naming the flag. */
  defaultProduct: number | undefined;
  /** `--dry-run`: no look-ups (they would be requests); the e-mail stands in the printed path. */
  dryRun?: boolean;
  /** How an e-mail is looked up (the profile's index, today's date). */
  lookup?: FindUserOptions;
}

/** A loan task: the engine's BulkTask, and the server look-up of a row whose outcome is unknown. */
export interface LoanTask extends BulkTask<LoanRow> {
  /** The loan request an unknown row made, if one is there and `claimed` does not hold its id. */
  lookUp(row: LoanRow, claimed: (id: number) => boolean): Promise<RowOutcome | undefined>;
  /** Whether the loan request an earlier run acknowledged for the row is still there, with its user. */
  verify(row: LoanRow, memory: { id: number | undefined; userId: number | undefined }): Promise<boolean>;
}

export function loanTask(api: () => ApiClient, options: LoanTaskOptions): LoanTask {
  const directory = userDirectory(api, options.lookup);
  const existing = new Map<number, Promise<Map<string, number | number[]>>>();
  const taken = new Set<number>();

  const existingOf = (productId: number) => {
    let index = existing.get(productId);
    if (!index) {
      index = indexLoanRequests(api(), productId);
      existing.set(productId, index);
    }
    return index;
  };

  return {
    prepare(fields) {
      const userText = fieldText(fields, 'user');
      const userIdText = fieldText(fields, 'user_id');
      if (userText !== undefined && userIdText !== undefined && userText.trim() !== userIdText.trim()) {
        throw new UsageError('Give the borrower once: user or user_id, not both.');
      }
      const productText = fieldText(fields, 'product');
      const productId = productText === undefined ? options.defaultProduct : parseId(productText, 'product');
      const { body } = buildOperationBody('createLoanRequest', rowFields('createLoanRequest', fields));
      const raw = userText ?? userIdText;
      if (raw === undefined) throw new UsageError('Missing user (a user id or e-mail).');
      const user = parseUserRef(raw, userText === undefined ? 'user_id' : 'user');
      if (productId === undefined) {
        throw new UsageError('No product: add a product column, or pass --product N (or set LOANCTL_PRODUCT_ID).');
      }
      return { user, productId, body };
    },

    async execute(row) {
      const productId = row.productId as number;
      if (options.dryRun) {
        const path = row.user.kind === 'id' ? row.user.id : `{id of ${row.user.email}}`;
        await api().call('createLoanRequest', { params: { user_id: path }, productId, body: row.body });
        throw new Error('unreachable: --dry-run sends nothing');
      }
      const userId = row.user.kind === 'id' ? row.user.id : await directory.idOf(row.user.email);
      const result = await api().call('createLoanRequest', { params: { user_id: userId }, productId, body: row.body });
      const loan = result.data as { id: number; reference?: string };
      return { status: 'success', id: loan.id, reference: loan.reference, user_id: userId, message: result.message };
    },

    async verify(row, memory) {
      if (memory.id === undefined) return false;
      const expected = row.user.kind === 'id' ? row.user.id : memory.userId;
      try {
        const loan = await findLoanRequest(api(), row.productId as number, memory.id);
        return expected === undefined || loan.user_id === expected;
      } catch (error) {
        if (error instanceof NoAccessError) return false;
        throw error;
      }
    },

    async lookUp(row, claimed) {
      const productId = row.productId as number;
      const userId = row.user.kind === 'id' ? row.user.id : await directory.idOf(row.user.email);
      const ids = (await existingOf(productId)).get(fingerprint(userId, productId, row.body));
      const candidates = ids === undefined ? [] : typeof ids === 'number' ? [ids] : ids;
      const match = candidates.find((id) => !claimed(id) && !taken.has(id));
      if (match === undefined) return undefined;
      taken.add(match);
      return {
        status: 'exists',
        id: match,
        user_id: userId,
        message: `An earlier run sent this row without an answer; loan request ${match} is it. Nothing was created.`,
      };
    },
  };
}

/**
 * What an unknown row is looked up by: product, user, amount and purpose. Kept
 * as 96 bits of their SHA-256 (16 characters, a fresh string): a small key of fixed size whatever
 * the purpose's length, so the index of a 100,000-request product stays a few MB.
 */
export function fingerprint(userId: number, productId: number, body: BodyOf<'createLoanRequest'>): string {
  return createHash('sha256')
    .update(`${productId}\n${userId}\n${body.amount}\n${body.purpose.trim()}`)
    .digest()
    .toString('base64url', 0, 12);
}

/**
 * The ids of every loan request of the product, by fingerprint, oldest first; the next page is
 * fetched while one is indexed. Only numbers and the fingerprints are kept — no string taken from
 * a reply, since V8 may keep such a string as a slice of the whole page's body, and a 100,000-row
 * product would then hold every page in memory.
 */
async function indexLoanRequests(api: ApiClient, productId: number): Promise<Map<string, number | number[]>> {
  const index = new Map<string, number | number[]>();
  for await (const page of loanRequestPages(
    api,
    productId,
    { direction: 'ASC', cursor: undefined, limit: 100 },
    { prefetch: true },
  )) {
    for (const loan of page.loanRequests) {
      const key = fingerprint(loan.user_id, productId, { amount: loan.amount, purpose: loan.purpose });
      // One id as a number; an array only for the rare fingerprint that has several.
      const ids = index.get(key);
      if (ids === undefined) index.set(key, loan.id);
      else if (typeof ids === 'number') index.set(key, [ids, loan.id]);
      else ids.push(loan.id);
    }
  }
  return index;
}

/** How many resolved e-mails are kept: enough for any file's repeats, flat at a million borrowers. */
const RESOLVED_KEPT = 10_000;

/** E-mail → user id, each distinct e-mail looked up once (see the top of this file). */
function userDirectory(api: () => ApiClient, lookup: FindUserOptions = {}) {
  const resolved = new Map<string, Promise<number>>();
  return {
    idOf(email: string): Promise<number> {
      const wanted = email.trim().toLowerCase();
      let id = resolved.get(wanted);
      if (!id) {
        id = findUserByEmail(api(), wanted, lookup).then((user) => user.id);
        // A failed look-up is not kept: the next row with that e-mail asks again.
        id.catch(() => resolved.delete(wanted));
        resolved.set(wanted, id);
        if (resolved.size > RESOLVED_KEPT) resolved.delete(resolved.keys().next().value as string);
      }
      return id;
    },
  };
}
