import type { Deps } from '../../deps.js';

export interface ProfileUseOptions {
  name: string;
}

export async function runProfileUse(options: ProfileUseOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  store.use(options.name);
  deps.io.stderr.write(`Now using profile "${options.name}".\n`);
}
