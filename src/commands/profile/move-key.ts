import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';

export interface ProfileMoveKeyOptions {
  name: string;
  to: string;
}

const PLACES = ['keyring', 'file'] as const;

export async function runProfileMoveKey(options: ProfileMoveKeyOptions, deps: Deps): Promise<void> {
  const to = options.to.toLowerCase();
  if (!(PLACES as readonly string[]).includes(to)) {
    throw new UsageError(
      `--to: "${options.to}" is not keyring or file.`,
      `e.g. loanctl profile move-key ${options.name} --to keyring`,
    );
  }
  const store = await deps.config();
  store.require(options.name);
  const { moveProfileKey } = await import('../../config/key-storage.js');
  const warn = (line: string) => deps.io.stderr.write(`loanctl: warning: ${line}\n`);
  const moved = await moveProfileKey(store, options.name, to as (typeof PLACES)[number], warn);
  const place = to === 'keyring' ? 'the OS keyring' : `${store.path} (mode 0600)`;
  deps.io.stderr.write(
    moved
      ? `Moved the API key of profile "${options.name}" to ${place}.\n`
      : `The API key of profile "${options.name}" is already in ${place}; nothing to move.\n`,
  );
}
