/** `loanctl sandbox proxy`: its flags and help; the run is ./proxy.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const sandboxProxy: Verb = (sandbox, deps) => {
  sandbox
    .command('proxy')
    .description(
      'Forward requests to a real server and check each request and reply against the contract (breaks in sandbox logs --violations)',
    )
    .requiredOption(
      '--upstream <url>',
      'the server to forward to, e.g. https://api.lender.example (http only on loopback)',
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '4011')
    .option('--strict', 'answer a reply that breaks the contract with a 502 envelope naming the break')
    .option('--timeout <duration>', 'how long the upstream may take to answer, e.g. 30s (then a 504 envelope)', '30s')
    .option('--data-dir <dir>', 'where its request log goes (default: $XDG_DATA_HOME/loanctl/proxy)')
    .addHelpText(
      'after',
      examples(
        'loanctl sandbox proxy --upstream https://api.lender.example --port 4011',
        'loanctl sandbox proxy --upstream http://127.0.0.1:4010 --strict -o json',
        'loanctl sandbox logs --violations --data-dir ~/.local/share/loanctl/proxy',
      ),
    )
    .action(async (options) => {
      const { runSandboxProxy } = await import('./proxy.js');
      await runSandboxProxy(options, deps);
    });
};
