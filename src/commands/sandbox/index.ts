/**
 * `loanctl sandbox …`: the local implementation of the whole API, and its administration. This
 * file only lists the verbs, in the order the help shows them; each is written as
 * ../common/verb.ts says, so its run (and Fastify, node:sqlite with it) is imported only when that
 * verb runs and `loanctl --help` loads none of it.
 */
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { examples } from '../common/help.js';
import { subNoun, type Verb } from '../common/verb.js';
import { sandboxClock } from './clock-verb.js';
import { jsonAlias } from './common.js';
import { faultsAdd } from './faults-add-verb.js';
import { faultsClear } from './faults-clear-verb.js';
import { faultsList } from './faults-list-verb.js';
import { sandboxLogs } from './logs-verb.js';
import { sandboxOpen } from './open-verb.js';
import { sandboxOpenapi } from './openapi-verb.js';
import { orgCreate } from './org-create-verb.js';
import { productCreate } from './product-create-verb.js';
import { sandboxProxy } from './proxy-verb.js';
import { sandboxReset } from './reset-verb.js';
import { sandboxRestore } from './restore-verb.js';
import { sandboxSeed } from './seed-verb.js';
import { sandboxSnapshot } from './snapshot-verb.js';
import { sandboxStart } from './start-verb.js';
import { sandboxStatus } from './status-verb.js';
import { sandboxStop } from './stop-verb.js';
import { sandboxVerify } from './verify-verb.js';

const SANDBOX_VERBS: readonly Verb[] = [
  sandboxStart,
  sandboxOpen,
  sandboxOpenapi,
  sandboxStatus,
  sandboxStop,
  sandboxReset,
  sandboxSnapshot,
  sandboxRestore,
  sandboxSeed,
  sandboxClock,
  subNoun(
    'org',
    "Manage the sandbox's lender organisations",
    'loanctl sandbox org create --name "Acme Lending" -o json',
    [orgCreate],
  ),
  subNoun(
    'product',
    "Manage the sandbox's loan products",
    'loanctl sandbox product create --org 2 --name "Asset Finance" -o json',
    [productCreate],
  ),
  sandboxLogs,
  sandboxVerify,
  sandboxProxy,
  subNoun(
    'faults',
    'Make the sandbox fail on purpose: errors, latency, rate limits, for some requests',
    'loanctl sandbox faults add --path "/api/v1/user" --method GET --status 503 --times 2',
    [faultsAdd, faultsList, faultsClear],
  ),
];

/** Adds the verbs to `sandbox`, which src/program.ts created with its description. */
export function addVerbs(sandbox: Command, deps: Deps): void {
  sandbox
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
  for (const add of SANDBOX_VERBS) add(sandbox, deps);
}
