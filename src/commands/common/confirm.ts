/**
 * Confirmation for destructive or binding actions (`loan approve`, `loan delete`): asked on an
 * interactive terminal, `--yes` elsewhere (docs/architecture.md#interaction). Declining is exit 130.
 */
import type { Deps } from '../../deps.js';
import { CancelledError, UsageError } from '../../errors.js';

export async function confirmAction(
  deps: Pick<Deps, 'prompter' | 'isInteractive'>,
  options: { question: string; yes: boolean | undefined; example: string },
): Promise<void> {
  if (options.yes) return;
  if (!deps.isInteractive()) {
    throw new UsageError(
      'This needs confirmation, and there is no terminal to ask on.',
      `Pass --yes to confirm, e.g. ${options.example}`,
    );
  }
  if (!(await deps.prompter.confirm(options.question, { default: false })))
    throw new CancelledError('Cancelled; nothing was sent.');
}
