import type { Deps } from '../../deps.js';

export interface ProfileRemoveOptions {
  name: string;
}

export async function runProfileRemove(options: ProfileRemoveOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const account = store.require(options.name).keyringAccount;
  const wasCurrent = store.remove(options.name);
  if (account !== undefined) {
    // After the profile is gone from the file: a keyring that does not answer leaves a copy, never a dangling profile.
    const { forget } = await import('../../config/key-storage.js');
    await forget(options.name, account, (line) => deps.io.stderr.write(`loanctl: warning: ${line}\n`));
  }
  const left = store.names();
  deps.io.stderr.write(
    `Removed profile "${options.name}" and its API key.${
      wasCurrent && left.length > 0
        ? ` There is no current profile now; pick one with: loanctl profile use ${left[0]}`
        : ''
    }\n`,
  );
}
