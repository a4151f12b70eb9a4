/** `loanctl sandbox verify`: its flags and help; the run is ./verify.ts. */
import type { Verb } from '../common/verb.js';
import { dataDirVerb } from './common.js';

export const sandboxVerify: Verb = (sandbox, deps) => {
  dataDirVerb(
    sandbox,
    'verify',
    'Check that the sandbox received the requests a test expects (exit 1 with the difference when not)',
    'loanctl sandbox verify --method POST --path /api/v1/user --count 1',
    'loanctl sandbox verify --method GET --path "/api/v1/loan_request/*" --status 2xx --since 5m',
  )
    .option('--method <method>', 'only requests of this method: GET, POST, PUT, DELETE')
    .option('--path <glob>', 'only paths matching the glob (* within a segment, ** across)')
    .option('--status <list>', 'only these: 2xx, 4xx, 5xx, an HTTP code, success, error, exists, no-access, refused')
    .option('--since <duration>', 'only the last 30s, 10m, 2h, 1d…')
    .option('--count <n>', 'exactly this many (default: at least one)')
    .action(async (options) => {
      const { runSandboxVerify } = await import('./verify.js');
      await runSandboxVerify(options, deps);
    });
};
