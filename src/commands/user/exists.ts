/**
 * `loanctl user exists --email`: prints `true` or `false` (spec 4.2).
 *
 * Exit 0 either way: "no such user" is an answer, not a failure, and a script reads stdout
 * (`[ "$(loanctl user exists --email x -o json)" = true ]`). Exit codes stay for failures.
 */
import type { Deps } from '../../deps.js';
import { parseEmail } from '../../input/values.js';
import { openOutput } from '../../output/output.js';

export interface UserExistsOptions {
  email: string;
}

export async function runUserExists(options: UserExistsOptions, deps: Deps): Promise<void> {
  const email = parseEmail(options.email, '--email');
  const output = await openOutput(deps, 'userExists', { scalar: 'exists' });
  const api = await deps.api();
  const result = await api.call('userExists', { query: { email, action: 'exists' } });
  await output.scalar(result.data === true, result.rawBody);
}
