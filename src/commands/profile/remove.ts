import type { Deps } from '../../deps.js';

export interface ProfileRemoveOptions {
  name: string;
}

export async function runProfileRemove(options: ProfileRemoveOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const wasCurrent = store.remove(options.name);
  const left = store.names();
  deps.io.stderr.write(
    `Removed profile "${options.name}" and its API key.${
      wasCurrent && left.length > 0
        ? ` There is no current profile now; pick one with: loanctl profile use ${left[0]}`
        : ''
    }\n`,
  );
}
