/**
 * `loanctl loan create --user ID|EMAIL --amount N --purpose TEXT` (spec 4.4).
 * An e-mail is resolved to the user's id through the user list (walking its pages); an e-mail
 * that is not there is exit 4 with one line saying so. On a terminal, missing values are asked for;
 * elsewhere they are exit 2 naming the flags.
 */

import { wantsBulk } from '../../bulk/options.js';
import type { Deps } from '../../deps.js';
import { userLookup } from '../../domain/user-lookup.js';
import { userIdOf } from '../../domain/users.js';
import { UsageError } from '../../errors.js';
import { buildOperationBody } from '../../input/body.js';
import { parseUserRef } from '../../input/values.js';
import { openOutput } from '../../output/output.js';
import { askMissingFields, askRequired } from '../../prompts/ask.js';
import { type FieldOptions, fieldInputs } from '../common/field-options.js';
import { type DataOption, findProduct, missingProduct, notice, type ProductOption, readData } from './common.js';

export interface LoanCreateOptions extends ProductOption, DataOption, FieldOptions<'createLoanRequest'> {
  user?: string;
  /** `--from FILE|-`: one loan request a row (src/bulk); `--concurrency`, `--format` go with it. */
  from?: string;
  concurrency?: string;
  format?: string;
  /** `--failed FILE` (with --from): the rejected rows, as read. */
  failed?: string;
}

export async function runLoanCreate(options: LoanCreateOptions, deps: Deps): Promise<void> {
  if (wantsBulk(options)) {
    const { bulkOnly } = await import('../../bulk/options.js');
    const from = bulkOnly(options, ['user', 'amount', 'purpose', 'data']);
    const { runBulkCreate } = await import('../../bulk/run.js');
    return runBulkCreate('loan', { ...options, from }, deps);
  }
  const productId = await findProduct(options, deps);
  // On a terminal a missing product fails before any question; elsewhere it is named below with
  // every other missing flag.
  if (productId === undefined && deps.isInteractive()) throw await missingProduct(deps);
  const { user_id: dataUser, ...data } = (await readData(options, deps)) ?? {};
  let userText = options.user ?? (dataUser === undefined ? undefined : String(dataUser));
  // On a terminal, ask for just the required values that no flag (or --data) gave.
  if (userText === undefined && deps.isInteractive()) {
    userText = await askRequired(deps.prompter, {
      label: 'Borrower (user id or e-mail)',
      parse: (raw, source) => {
        parseUserRef(raw, source);
        return raw.trim();
      },
    });
  }
  if (userText === undefined || productId === undefined) {
    const others = (['amount', 'purpose'] as const).filter(
      (key) => options[key] === undefined && data[key] === undefined,
    );
    if (productId === undefined) {
      throw await missingProduct(deps, [
        ...(userText === undefined ? ['--user'] : []),
        ...others.map((key) => `--${key}`),
      ]);
    }
    throw new UsageError(
      `Missing ${['--user', ...others.map((key) => `--${key}`)].join(', ')}: the borrower is a user id or e-mail.`,
      'For example: --user ada@example.com --amount 50000 --purpose "Shop stock"',
    );
  }
  const userRef = parseUserRef(userText, options.user === undefined ? 'field "user_id" of --data' : '--user');
  const fields = await askMissingFields(deps, 'createLoanRequest', fieldInputs('createLoanRequest', options), data);
  const { body, ignored } = buildOperationBody('createLoanRequest', fields, data);
  for (const key of ignored) notice(deps, `loanctl: ignoring "${key}" in --data: a loan request has no such field.`);

  const output = await openOutput(deps, 'createLoanRequest');
  const api = await deps.api();
  const userId = await userIdOf(api, userRef, await userLookup(deps));
  if (userRef.kind === 'email') notice(deps, `${userRef.email} is user ${userId}.`);
  const result = await api.call('createLoanRequest', { params: { user_id: userId }, productId, body });
  const loan = result.data;
  notice(deps, `Created loan request ${loan.id}.`);
  await output.print(loan, result.rawBody);
  notice(
    deps,
    `next: loanctl loan add-bank ${loan.id} --code … --account-name …   (then add-employment, add-guarantor, submit)`,
  );
}
