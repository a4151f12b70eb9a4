/**
 * `loanctl user create`: create a borrower (spec 4.1).
 *
 * - The password comes from `--password-stdin`, else `password` in `--data`, else a masked prompt
 *   on a terminal; not interactive and none of those → exit 2 naming `--password-stdin` (with
 *   any missing field flags, in one line). The other fields are checked first, so nobody types a
 *   password for a command that will fail.
 * - On a terminal, a required field that neither a flag nor `--data` gave is asked for (checked as
 *   it is typed); elsewhere it is exit 2 naming the flags.
 * - The API answers `exists` for an e-mail it already has: that is exit 0 (docs/guide.md#exit-codes), with
 *   a notice on stderr, and the JSON carries `"status": "exists"` (`"created"` for a new user).
 * - The reply has no id (spec 2.2), so the hint on stderr continues with the e-mail.
 */

import { wantsBulk } from '../../bulk/options.js';
import { indexPaths, rememberReferences } from '../../config/user-index.js';
import { bodySchemaWithout } from '../../contract/field-schemas.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { buildBody, buildOperationBody } from '../../input/body.js';
import { notice } from '../../output/notice.js';
import { openOutput } from '../../output/output.js';
import { askMissingFields } from '../../prompts/ask.js';
import { type DataOption, readData } from '../common/data-option.js';
import { type FieldOptions, fieldInputs } from '../common/field-options.js';
import { readSecret } from '../common/stdin.js';

export interface UserCreateOptions extends DataOption, FieldOptions<'createUser'> {
  passwordStdin?: boolean;
  /** `--from FILE|-`: one user a row (src/bulk); `--concurrency`, `--format` go with it. */
  from?: string;
  concurrency?: string;
  format?: string;
  /** `--failed FILE` (with --from): the rejected rows, as read. */
  failed?: string;
}

export async function runUserCreate(options: UserCreateOptions, deps: Deps): Promise<void> {
  if (wantsBulk(options)) {
    const { bulkOnly } = await import('../../bulk/options.js');
    const from = bulkOnly(options, ['firstname', 'lastname', 'email', 'phone', 'gender', 'passwordStdin', 'data']);
    const { runBulkCreate } = await import('../../bulk/run.js');
    return runBulkCreate('user', { ...options, from }, deps);
  }
  if (options.passwordStdin && options.data === '-') {
    throw new UsageError('--password-stdin and --data - both read stdin; use --data @file.json with --password-stdin.');
  }
  const data = await readData(options, deps);
  const { password: fromData, ...rest } = data ?? {};
  // On a terminal, ask for just the required fields that no flag (or --data) gave.
  const asked = await askMissingFields(deps, 'createUser', fieldInputs('createUser', options), rest);
  // Without a terminal the password can only come from stdin or --data: when it will be missing,
  // say so with the missing fields, not on the next run.
  const passwordMissing =
    !options.passwordStdin && !(typeof fromData === 'string' && fromData !== '') && !deps.isInteractive();
  const { ignored } = buildBody(bodySchemaWithout('createUser', 'password'), asked, rest, {
    alsoMissing: passwordMissing ? ['--password-stdin'] : [],
    alsoHint: `The password comes through stdin: printf '%s' "$PASSWORD" | loanctl user create … --password-stdin`,
  });
  for (const key of ignored) notice(deps, `loanctl: ignoring "${key}" in --data: a user has no such field.`);

  const output = await openOutput(deps, 'createUser');
  const password = await readPassword(options, typeof fromData === 'string' ? fromData : undefined, deps);
  const passwordField = { key: 'password', flag: '--password-stdin', value: undefined };
  const { body: request } = buildOperationBody('createUser', [...asked, passwordField], { ...rest, password });

  const api = await deps.api();
  const result = await api.call('createUser', { body: request });
  const exists = result.status === 'exists';
  if (exists) {
    notice(deps, `A user with e-mail ${request.email} already exists; nothing was created (exit 0).`);
  } else {
    notice(deps, `Created user ${request.email}.`);
  }
  const record = { ...(result.data as Record<string, unknown>), status: exists ? 'exists' : 'created' };
  const reference = (result.data as { reference?: unknown } | null)?.reference;
  if (typeof reference === 'string' && reference !== '') await rememberReference(deps, reference, request.email);
  await output.print(record, result.rawBody);
  notice(deps, `next: loanctl loan create --user ${request.email} --amount 50000 --purpose "…"`);
}

/** Kept beside the borrower index, for `user show REFERENCE`. */
async function rememberReference(deps: Deps, reference: string, email: string): Promise<void> {
  const settings = await deps.settings();
  if (settings.baseUrl === undefined) return;
  rememberReferences(indexPaths(deps.env, settings.profile?.name, settings.baseUrl), [{ reference, email }]);
}

async function readPassword(options: UserCreateOptions, fromData: string | undefined, deps: Deps): Promise<string> {
  if (!options.passwordStdin && fromData !== undefined && fromData !== '') return fromData;
  return readSecret(deps, {
    stdinFlag: '--password-stdin',
    fromStdin: options.passwordStdin,
    prompt: "Borrower's password:",
    what: "borrower's password",
    example: `printf '%s' "$PASSWORD" | loanctl user create … --password-stdin`,
    keepSpaces: true,
  });
}
