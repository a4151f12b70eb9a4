/**
 * What a look-up wants from the local index of borrowers (./borrower-index.ts): the lines of the
 * index that may hold it, and the test a user the walk reads must pass. By e-mail, by phone, or by
 * any test of a borrower's names.
 */
import { emailKey, parseIndexLine } from '../config/user-index.js';
import type { UserListItem } from '../contract/schemas.js';
import { phoneKey } from '../contract/vocabulary.js';
import type { Wanted } from './borrower-index.js';

/** The lines whose field at `column` (1: e-mail, 2: phone) is exactly `value`. */
function linesWith(body: string, value: string, column: 1 | 2): string[] {
  const needle = `\t${JSON.stringify(value)}\t`;
  const found: string[] = [];
  for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, at + 1)) {
    const start = body.lastIndexOf('\n', at) + 1;
    const end = body.indexOf('\n', at);
    const line = body.slice(start, end);
    const fields = line.split('\t');
    if (fields[column + 1] === JSON.stringify(value)) found.push(line);
  }
  return found;
}

/** A borrower by e-mail (any case). */
export function byEmail(email: string): Wanted {
  const wanted = emailKey(email.trim());
  return {
    email: wanted,
    lines: (body) => linesWith(body, wanted, 1),
    user: (user) => typeof user.email === 'string' && emailKey(user.email) === wanted,
  };
}

/** Borrowers by phone, with `matches` the phone matcher of `user find` (src/domain/user-find.ts). */
export function byPhone(phone: string, matches: (user: UserListItem) => boolean): Wanted {
  return { lines: (body) => linesWith(body, phoneKey(phone), 2), user: matches };
}

/** Borrowers by any test of their name, e-mail or phone (`user find --name`): every line is read. */
export function byTest(matches: (user: UserListItem) => boolean): Wanted {
  return { lines: (body) => allLines(body).filter((line) => matches(asUser(line))), user: matches };
}

function allLines(body: string): string[] {
  return body.split('\n').filter(Boolean);
}

function asUser(line: string): UserListItem {
  return parseIndexLine(line) as unknown as UserListItem;
}
