import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { profileRow } from './rows.js';

export interface ProfileShowOptions {
  name?: string | undefined;
}

export async function runProfileShow(options: ProfileShowOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const name = options.name ?? deps.globals.profile ?? (deps.env.LOANCTL_PROFILE || undefined) ?? store.current;
  if (!name) {
    throw new UsageError('There is no current profile.', 'Add one with: loanctl profile add NAME --base-url URL');
  }
  await render(profileRow(name, store.require(name), name === store.current), { kind: 'profile' }, deps);
}
