/** `loanctl sandbox faults add`: its flags and help; the run is ./faults-add.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';
import { DATA_DIR_HELP } from './common.js';

export const faultsAdd: Verb = (faults, deps) => {
  faults
    .command('add')
    .description('Add a fault; a running sandbox applies it from its next request')
    .option('--preset <name>', "one of the spec's own failures: tokenize-500, employment-500, error-200, gateway-503")
    .option('--path <glob>', 'the paths it applies to (* within a segment, ** across)')
    .option('--method <method>', 'only this method (default: any)')
    .option('--status <code>', 'answer with this HTTP status, e.g. 500, 503, 429 (200 with --envelope error)')
    .option(
      '--envelope <kind>',
      '"error": the API\'s error envelope; "none" (default): a bare body, as a gateway sends',
    )
    .option('--message <text>', "the envelope's message (with --envelope error)")
    .option('--latency <duration>', 'wait this long first, e.g. 2s (alone: then answer as usual)')
    .option('--probability <p>', 'fire on this share of matching requests, e.g. 0.2 (default 1)')
    .option('--seed <n>', 'make --probability repeatable: the same seed gives the same sequence')
    .option('--times <k>', 'fire at most k times, then answer as usual')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .addHelpText(
      'after',
      examples(
        'loanctl sandbox faults add --path "/api/v1/user" --method GET --status 503 --times 2',
        'loanctl sandbox faults add --preset tokenize-500',
        'loanctl sandbox faults add --path "/api/**" --status 200 --envelope error --probability 0.2 --seed 7',
      ),
    )
    .action(async (options) => {
      const { runSandboxFaultsAdd } = await import('./faults-add.js');
      await runSandboxFaultsAdd(options, deps);
    });
};
