import type { Deps } from '../../deps.js';
import { render } from '../../output/render.js';
import { profileRow } from './rows.js';

export type ProfileListOptions = Record<string, never>;

export async function runProfileList(_options: ProfileListOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const rows = store.names().map((name) => profileRow(name, store.require(name), name === store.current));
  if (rows.length === 0)
    deps.io.stderr.write('No profiles yet. Add one with: loanctl profile add NAME --base-url URL\n');
  // That says it for a table; JSON still prints [] for a script.
  await render(rows, { kind: 'profile', empty: null }, deps);
}
