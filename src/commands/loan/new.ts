/**
 * `loanctl loan new [--resume ID]`: the guided loan creation. The flow itself — its
 * questions, steps, what it sent, Ctrl-C and --resume — is src/flows/loan-new/ (flow.ts first).
 *
 * - Every answer is checked as it is typed; a wrong one is refused with the reason and asked again.
 * - Ctrl-C anywhere lists what this run created, with ids, and exits 130 with the command that
 *   continues: `loanctl loan new --resume ID`.
 * - Talk goes to stderr (prompts draw there too); the loan request at the end goes to stdout.
 * - Needs a terminal: without one (or with --no-input, or CI set) it is exit 2, pointing at the
 *   verbs a script uses instead.
 */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import type { Signals } from '../../flows/loan-new/interrupt.js';
import { parseId } from '../../input/values.js';
import { type ProductOption, resolveProduct } from './common.js';

export interface LoanNewOptions extends ProductOption {
  /** `--resume ID`: pick up an existing loan request. */
  resume?: string | undefined;
}

export interface LoanNewHooks {
  /** Where SIGINT comes from (default: process); tests pass an EventEmitter. */
  signals?: Signals;
}

export async function runLoanNew(options: LoanNewOptions, deps: Deps, hooks: LoanNewHooks = {}): Promise<void> {
  const resumeId = options.resume === undefined ? undefined : parseId(options.resume, '--resume');
  if (!deps.isInteractive()) {
    throw new UsageError(
      'loan new asks its questions on a terminal, and there is none here (or --no-input or CI is set).',
      'From a script use the verbs: loanctl loan create --user EMAIL --amount N --purpose TEXT, then loan add-bank, loan submit and loan approve (see loanctl loan --help).',
    );
  }
  const productId = await resolveProduct(options, deps);
  const { runLoanNewFlow } = await import('../../flows/loan-new/flow.js');
  await runLoanNewFlow(deps, { productId, productFlag: options.product, resumeId, signals: hooks.signals ?? process });
}
