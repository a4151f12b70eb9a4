/**
 * `loanctl sandbox …`: the local implementation of the whole API, and its administration.
 * This file only describes the flags; each verb's file (and Fastify, node:sqlite with it) is
 * imported only when that verb runs, so `loanctl --help` loads none of it.
 */
import { type Command, Option } from 'commander';
import type { Deps } from '../../deps.js';
import { JSON_ALIAS_HELP, jsonAlias } from './json-alias.js';

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

export function registerSandboxCommands(program: Command, deps: Deps): void {
  const sandbox = program
    .command('sandbox')
    .description('Run a local sandbox of the whole Lending Origination API')
    .hook('preAction', jsonAlias(deps))
    .addHelpText(
      'after',
      examples(
        'loanctl sandbox start',
        'loanctl sandbox start --json --port 0 --data-dir "$(mktemp -d)"',
        'loanctl sandbox start --detach && loanctl sandbox seed fixtures/small-book.yaml',
        'loanctl sandbox clock advance 30d',
        'loanctl sandbox snapshot clean && loanctl sandbox restore clean',
        'loanctl sandbox org create --name "Acme Lending"',
      ),
    );

  sandbox
    .command('start')
    .description('Serve the sandbox until Ctrl-C (creates a demo organisation and product on first start)')
    .option('--host <host>', 'address to listen on (a non-loopback one is warned about)', '127.0.0.1')
    .option(
      '--allow-host <name>',
      'a name requests may reach it by, besides loopback and --host (repeatable; others are refused)',
      (name: string, previous: string[] = []) => [...previous, name],
    )
    .option('--port <port>', 'port to listen on; 0 picks a free one', '4010')
    .option('--data-dir <dir>', 'where the sandbox keeps its data (default: $XDG_DATA_HOME/loanctl/sandbox)')
    .option('--json', 'print one JSON line {url, api_key, org_id, product_id} once listening')
    .option('--no-profile', 'do not write the CLI profile "sandbox" pointing at this server')
    .option('--detach', 'run in the background: print url, key, product id, pid and log file, then return')
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

  registerControlCommands(sandbox, deps);

  const org = sandbox
    .command('org')
    .description("Manage the sandbox's lender organisations")
    .addHelpText('after', examples('loanctl sandbox org create --name "Acme Lending" -o json'));
  org
    .command('create')
    .description('Create an organisation and print its id and a new API key (shown only once)')
    .requiredOption('--name <name>', 'the organisation name')
    .option('--data-dir <dir>', 'the sandbox data dir (default: $XDG_DATA_HOME/loanctl/sandbox)')
    .option('--json', JSON_ALIAS_HELP)
    .addHelpText('after', examples('loanctl sandbox org create --name "Acme Lending" -o json'))
    .action(async (options) => {
      const { runSandboxOrgCreate } = await import('./org-create.js');
      await runSandboxOrgCreate(options, deps);
    });

  const product = sandbox
    .command('product')
    .description("Manage the sandbox's loan products")
    .addHelpText('after', examples('loanctl sandbox product create --org 2 --name "Asset Finance" -o json'));
  product
    .command('create')
    .description('Create a loan product for an organisation and print its id and slug')
    .requiredOption('--org <id>', 'the organisation id')
    .requiredOption('--name <name>', 'the product name')
    .option('--data-dir <dir>', 'the sandbox data dir (default: $XDG_DATA_HOME/loanctl/sandbox)')
    .option('--json', JSON_ALIAS_HELP)
    .addHelpText('after', examples('loanctl sandbox product create --org 2 --name "Asset Finance" -o json'))
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
    .description('Remove the faults with these ids, or every fault; a running sandbox drops them from its next request')
    .argument('[id...]', 'fault ids: the numbers `faults list` shows after #; none: every fault')
    .option('--data-dir <dir>', 'the sandbox data dir (default: $XDG_DATA_HOME/loanctl/sandbox)')
    .addHelpText('after', examples('loanctl sandbox faults clear 2 3', 'loanctl sandbox faults clear'))
    .action(async (ids: string[], options) => {
      const { runSandboxFaultsClear } = await import('./faults-clear.js');
      await runSandboxFaultsClear(ids, options, deps);
    });
}

const DATA_DIR_HELP = 'the sandbox data dir (default: $XDG_DATA_HOME/loanctl/sandbox)';

/** status, stop, reset, snapshot, restore, seed, clock: each verb's file loads only when it runs. */
function registerControlCommands(sandbox: Command, deps: Deps): void {
  const verb = (name: string, description: string, ...lines: string[]) =>
    sandbox
      .command(name)
      .description(description)
      .option('--data-dir <dir>', DATA_DIR_HELP)
      .option('--json', JSON_ALIAS_HELP)
      .addHelpText('after', examples(...lines));

  verb(
    'status',
    'Say whether a sandbox serves the data dir: url, pid, uptime (exit 4 when none does)',
    'loanctl sandbox status',
  ).action(async (options) => (await import('./status.js')).runSandboxStatus(options, deps));
  verb('stop', 'Stop the sandbox serving the data dir, letting requests in flight finish', 'loanctl sandbox stop')
    .option('--timeout <seconds>', 'how long to wait for it to exit', '30')
    .action(async (options) => (await import('./stop.js')).runSandboxStop(options, deps));
  verb(
    'reset',
    'Remove every borrower and loan request (keeps organisations, keys, products); asks first',
    'loanctl sandbox reset',
    'loanctl sandbox reset --all --yes',
  )
    .option('--all', 'remove everything, then make the demo organisation and product again')
    .option('--yes', 'do it without asking (needed where there is no terminal to ask on)')
    .action(async (options) => (await import('./reset.js')).runSandboxReset(options, deps));

  const snapshot = verb(
    'snapshot',
    'Save a consistent copy of the data under NAME (while serving, too)',
    'loanctl sandbox snapshot before-test',
    'loanctl sandbox snapshot list',
  )
    .argument('<name>', 'letters, digits, ".", "_" or "-"')
    .option('--force', 'replace a snapshot of the same name')
    .action(async (name, options) => (await import('./snapshot.js')).runSandboxSnapshot(name, options, deps));
  snapshot
    .command('list')
    .description('List the snapshots of the data dir')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--json', JSON_ALIAS_HELP)
    .addHelpText('after', examples('loanctl sandbox snapshot list', 'loanctl sandbox snapshot list -o json'))
    .action(async (_options, command: Command) =>
      (await import('./snapshot-list.js')).runSandboxSnapshotList(command.optsWithGlobals(), deps),
    );
  verb(
    'restore',
    'Replace the data with snapshot NAME, in one transaction (while serving, too); asks first',
    'loanctl sandbox restore before-test',
    'loanctl sandbox restore before-test --yes',
  )
    .argument('<name>', 'a snapshot name (see `sandbox snapshot list`)')
    .option('--yes', 'do it without asking (needed where there is no terminal to ask on)')
    .action(async (name, options) => (await import('./restore.js')).runSandboxRestore(name, options, deps));
  verb(
    'seed',
    'Create data from a fixture file of named steps (JSON or YAML; README "Seed files")',
    'loanctl sandbox seed fixtures/small-book.yaml',
  )
    .argument('<file>', 'the fixture file')
    .action(async (file, options) => (await import('./seed.js')).runSandboxSeed(file, options, deps));

  const clock = verb(
    'clock',
    "Show the sandbox's clock (every timestamp it writes follows it)",
    'loanctl sandbox clock',
    'loanctl sandbox clock set 2026-01-01T09:00:00Z',
    'loanctl sandbox clock advance 30d',
    'loanctl sandbox clock reset',
  ).action(async (options) => (await import('./clock-show.js')).runSandboxClockShow(options, deps));
  // `--data-dir` after a subcommand may be parsed as the parent's option: optsWithGlobals() reads both.
  const clockVerb = (name: string, description: string, example: string) =>
    clock
      .command(name)
      .description(description)
      .option('--data-dir <dir>', DATA_DIR_HELP)
      .option('--json', JSON_ALIAS_HELP)
      .addHelpText('after', examples(example));
  clockVerb('set', "Set the sandbox's time (it runs on from there)", 'loanctl sandbox clock set 2026-01-01T09:00:00Z')
    .argument('<time>', 'an ISO 8601 time with its zone, e.g. 2026-01-01T09:00:00Z')
    .action(async (time, _options, command: Command) =>
      (await import('./clock-set.js')).runSandboxClockSet(time, command.optsWithGlobals(), deps),
    );
  clockVerb(
    'advance',
    "Move the sandbox's time by a duration: 45s, 15m, 12h, 30d (-2h moves it back)",
    'loanctl sandbox clock advance 30d',
  )
    .argument('<duration>', 'a whole number and a unit: s, m, h or d')
    .action(async (duration, _options, command: Command) =>
      (await import('./clock-advance.js')).runSandboxClockAdvance(duration, command.optsWithGlobals(), deps),
    );
  clockVerb('reset', "Make the sandbox's time real time again", 'loanctl sandbox clock reset').action(
    async (_options, command: Command) =>
      (await import('./clock-reset.js')).runSandboxClockReset(command.optsWithGlobals(), deps),
  );
}
