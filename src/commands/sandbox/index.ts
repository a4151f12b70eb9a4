/**
 * `loanctl sandbox …`: the local implementation of the whole API, and its administration.
 * This file only describes the flags; each verb's file (and Fastify, node:sqlite with it) is
 * imported only when that verb runs, so `loanctl --help` loads none of it.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

export function registerSandboxCommands(program: Command, deps: Deps): void {
  const sandbox = program
    .command('sandbox')
    .description('Run a local sandbox of the whole Lending Origination API')
    .addHelpText(
      'after',
      examples(
        'loanctl sandbox start',
        'loanctl sandbox start --json --port 0 --data-dir "$(mktemp -d)"',
        'loanctl sandbox org create --name "Acme Lending"',
      ),
    );

  sandbox
    .command('start')
    .description('Serve the sandbox until Ctrl-C (creates a demo organisation and product on first start)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '4010')
    .option('--data-dir <dir>', 'where the sandbox keeps its data (default: $XDG_DATA_HOME/loanctl/sandbox)')
    .option('--json', 'print one JSON line {url, api_key, org_id, product_id} once listening')
    .option('--no-profile', 'do not write the CLI profile "sandbox" pointing at this server')
    .addHelpText(
      'after',
      examples('loanctl sandbox start', 'loanctl sandbox start --json --port 0 --data-dir "$(mktemp -d)"'),
    )
    .action(async (options) => {
      const { runSandboxStart } = await import('./start.js');
      await runSandboxStart(options, deps);
    });

  const org = sandbox
    .command('org')
    .description("Manage the sandbox's lender organisations")
    .addHelpText('after', examples('loanctl sandbox org create --name "Acme Lending" --json'));
  org
    .command('create')
    .description('Create an organisation and print its id and a new API key (shown only once)')
    .requiredOption('--name <name>', 'the organisation name')
    .option('--data-dir <dir>', 'the sandbox data dir (default: $XDG_DATA_HOME/loanctl/sandbox)')
    .option('--json', 'print {org_id, api_key} as JSON')
    .addHelpText('after', examples('loanctl sandbox org create --name "Acme Lending" --json'))
    .action(async (options) => {
      const { runSandboxOrgCreate } = await import('./org-create.js');
      await runSandboxOrgCreate(options, deps);
    });

  const product = sandbox
    .command('product')
    .description("Manage the sandbox's loan products")
    .addHelpText('after', examples('loanctl sandbox product create --org 2 --name "Asset Finance" --json'));
  product
    .command('create')
    .description('Create a loan product for an organisation and print its id and slug')
    .requiredOption('--org <id>', 'the organisation id')
    .requiredOption('--name <name>', 'the product name')
    .option('--data-dir <dir>', 'the sandbox data dir (default: $XDG_DATA_HOME/loanctl/sandbox)')
    .option('--json', 'print {product_id, slug} as JSON')
    .addHelpText('after', examples('loanctl sandbox product create --org 2 --name "Asset Finance" --json'))
    .action(async (options) => {
      const { runSandboxProductCreate } = await import('./product-create.js');
      await runSandboxProductCreate(options, deps);
    });

  sandbox
    .command('logs')
    .description('Show the requests a sandbox on this data dir answered, newest last (passwords and keys hidden)')
    .option('--data-dir <dir>', 'the sandbox data dir (default: $XDG_DATA_HOME/loanctl/sandbox)')
    .option('-f, --follow', 'keep printing new requests as they come, until Ctrl-C')
    .option('--status <list>', 'only these: 2xx, 4xx, 5xx, an HTTP code, success, error, exists, no-access, refused')
    .option('--path <glob>', 'only paths matching the glob (* within a segment, ** across)')
    .option('--since <duration>', 'only the last 30s, 10m, 2h, 1d…')
    .option('--limit <n>', 'at most this many, the newest (default 50; 10 with --follow)')
    .addHelpText(
      'after',
      examples(
        'loanctl sandbox logs --status 4xx,no-access --since 10m',
        'loanctl sandbox logs --follow --path "/api/v1/loan_request/**" -o ndjson',
      ),
    )
    .action(async (options) => {
      const { runSandboxLogs } = await import('./logs.js');
      await runSandboxLogs(options, deps);
    });

  const faults = sandbox
    .command('faults')
    .description('Make the sandbox fail on purpose: errors, latency, rate limits, for some requests')
    .addHelpText(
      'after',
      examples('loanctl sandbox faults add --path "/api/v1/user" --method GET --status 503 --times 2'),
    );
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
    .option('--data-dir <dir>', 'the sandbox data dir (default: $XDG_DATA_HOME/loanctl/sandbox)')
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
  faults
    .command('list')
    .description('List the faults, in the order they apply (the first that matches a request decides)')
    .option('--data-dir <dir>', 'the sandbox data dir (default: $XDG_DATA_HOME/loanctl/sandbox)')
    .addHelpText('after', examples('loanctl sandbox faults list', 'loanctl sandbox faults list -o json'))
    .action(async (options) => {
      const { runSandboxFaultsList } = await import('./faults-list.js');
      await runSandboxFaultsList(options, deps);
    });
  faults
    .command('clear')
    .description('Remove every fault; a running sandbox answers as usual from its next request')
    .option('--data-dir <dir>', 'the sandbox data dir (default: $XDG_DATA_HOME/loanctl/sandbox)')
    .addHelpText('after', examples('loanctl sandbox faults clear'))
    .action(async (options) => {
      const { runSandboxFaultsClear } = await import('./faults-clear.js');
      await runSandboxFaultsClear(options, deps);
    });
}
