/** `loanctl sandbox start`: its flags and help; the run is ./start.ts. */
import { Option } from 'commander';
import { examples } from '../common/help.js';
import { collect, type Verb } from '../common/verb.js';
import { DEFAULT_DATA_DIR } from './common.js';

export const sandboxStart: Verb = (sandbox, deps) => {
  sandbox
    .command('start')
    .description('Serve the sandbox until Ctrl-C (creates a demo organisation and product on first start)')
    .option('--host <host>', 'address to listen on (a non-loopback one is warned about)', '127.0.0.1')
    .option(
      '--allow-host <name>',
      'a name requests may reach it by, besides loopback and --host (repeatable; others are refused)',
      collect,
    )
    .option('--port <port>', 'port to listen on; 0 picks a free one', '4010')
    .option('--data-dir <dir>', `where the sandbox keeps its data (default: ${DEFAULT_DATA_DIR})`)
    .option('--json', 'print one JSON line {url, api_key, org_id, product_id} once listening')
    .option('--no-profile', 'do not write the CLI profile "sandbox" pointing at this server')
    .option('--detach', 'run in the background: print url, key, product id, pid and log file, then return')
    // The background process `--detach` starts runs this command with it (src/sandbox/control/detach.ts).
    .addOption(new Option('--detached-child').hideHelp())
    .addHelpText(
      'after',
      examples(
        'loanctl sandbox start',
        'loanctl sandbox start --json --port 0 --data-dir "$(mktemp -d)"',
        'loanctl sandbox start --detach --port 0',
        'loanctl sandbox start --host 0.0.0.0 --allow-host sandbox.internal',
      ),
    )
    .action(async (options) => {
      const { runSandboxStart } = await import('./start.js');
      await runSandboxStart(options, deps);
    });
};
