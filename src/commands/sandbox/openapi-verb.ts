/** `loanctl sandbox openapi`: its flags and help; the run is ./openapi.ts. */
import { examples } from '../common/help.js';
import type { Verb } from '../common/verb.js';

export const sandboxOpenapi: Verb = (sandbox, deps) => {
  sandbox
    .command('openapi')
    .description("Print the API's OpenAPI 3.1 document (JSON), generated from loanctl's contract")
    .option('--server-url <url>', 'the server the document names (default: http://127.0.0.1:4010)')
    .addHelpText('after', examples('loanctl sandbox openapi > openapi.json', 'curl http://127.0.0.1:4010/openapi.json'))
    .action(async (options) => {
      const { runSandboxOpenapi } = await import('./openapi.js');
      await runSandboxOpenapi(options, deps);
    });
};
