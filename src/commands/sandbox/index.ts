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

  sandbox
    .command('open')
    .description("Open the sandbox's lender dashboard in the browser (prints its URL where there is none)")
    .addHelpText('after', examples('loanctl sandbox open', 'loanctl --base-url http://127.0.0.1:4011 sandbox open'))
    .action(async () => {
      const { runSandboxOpen } = await import('./open.js');
      await runSandboxOpen(deps);
    });

  sandbox
    .command('openapi')
    .description("Print the API's OpenAPI 3.1 document (JSON), generated from loanctl's contract")
    .option('--server-url <url>', 'the server the document names (default: http://127.0.0.1:4010)')
    .addHelpText('after', examples('loanctl sandbox openapi > openapi.json', 'curl http://127.0.0.1:4010/openapi.json'))
    .action(async (options) => {
      const { runSandboxOpenapi } = await import('./openapi.js');
      await runSandboxOpenapi(options, deps);
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
}
