/**
 * `loanctl demo`: its flags and help; run.ts (and the sandbox, Fastify and node:sqlite with it) is
 * imported only when the demo runs.
 */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const demo: Verb = (program, deps) => {
  program
    .command('demo')
    .description('Run the whole loan flow on a throwaway local sandbox, showing each command and its result')
    .option('--keep', 'leave the sandbox running afterwards (until Ctrl-C) and point the "sandbox" profile at it')
    .addHelpText(
      'after',
      `${examples('loanctl demo', 'loanctl demo --keep', 'loanctl demo -o ndjson | jq -r .command')}
The demo starts a sandbox on a free port with a temporary data dir, creates a borrower, a loan
request with bank details, employment and a guarantor, submits it, previews the repayment
schedule, approves it and shows it. Narration goes to stderr; each step's result to stdout, as a
table (-o json: one array of {step, title, command, result}; -o ndjson: one such object a line).
Then it stops the sandbox and removes its data. It never reads or changes your profiles, except
that --keep writes the "sandbox" profile, as \`loanctl sandbox start\` does.
`,
    )
    .action(async (options) => {
      const { runDemo } = await import('./run.js');
      await runDemo(options, deps);
    });
};
