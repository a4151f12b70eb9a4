/** `loanctl sandbox logs`: its flags and help; the run is ./logs.ts. */
import type { Verb } from '../common/verb.js';
import { dataDirVerb } from './common.js';

export const sandboxLogs: Verb = (sandbox, deps) => {
  dataDirVerb(
    sandbox,
    'logs',
    'Show the requests a sandbox on this data dir answered, newest last (passwords and keys hidden)',
    'loanctl sandbox logs --status 4xx,no-access --since 10m',
    'loanctl sandbox logs --follow --path "/api/v1/loan_request/**" -o ndjson',
    'loanctl sandbox logs --violations --data-dir ~/.local/share/loanctl/proxy',
  )
    .option('-f, --follow', 'keep printing new requests as they come, until Ctrl-C')
    .option('--status <list>', 'only these: 2xx, 4xx, 5xx, an HTTP code, success, error, exists, no-access, refused')
    .option('--path <glob>', 'only paths matching the glob (* within a segment, ** across)')
    .option('--since <duration>', 'only the last 30s, 10m, 2h, 1d…')
    .option('--limit <n>', 'at most this many, the newest (default 50; 10 with --follow)')
    .option('--violations', 'only requests that broke the contract (sandbox proxy), with where and how')
    .action(async (options) => {
      const { runSandboxLogs } = await import('./logs.js');
      await runSandboxLogs(options, deps);
    });
};
