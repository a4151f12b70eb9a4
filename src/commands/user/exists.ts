/**
 * `loanctl user exists --email`: prints `true` or `false` (spec 4.2).
 *
 * Exit 0 either way: "no such user" is an answer, not a failure, and a script reads stdout
 * (`[ "$(loanctl user exists --email x -o json)" = true ]`). Exit codes stay for failures.
 */
import type { Deps } from '../../deps.js';
import { parseEmail } from '../../input/values.js';
import { printScalar } from '../../output/print.js';

export interface UserExistsOptions {
  email: string;
}

export async function runUserExists(options: UserExistsOptions, deps: Deps): Promise<void> {
  const email = parseEmail(options.email, '--email');
  const api = await deps.api();
  const result = await api.call('userExists', { query: { email, action: 'exists' } });
  await printScalar(deps, result, result.data === true, 'exists');
}
