/** `loanctl api METHOD PATH`: its arguments, flags and help; the run is ./run.ts. */
import { API_METHODS } from '../../contract/operations.js';
import { examples } from '../common/help.js';
import { collect, type Verb } from '../common/verb.js';

export const apiRequest: Verb = (program, deps) => {
  program
    .command('api')
    .description("Send any request to the API with the profile's key and print the reply envelope")
    .argument('<method>', `${API_METHODS.slice(0, -1).join(', ')} or ${API_METHODS.at(-1)}`)
    .argument('<path>', 'e.g. /api/v1/loan_request/172 (a path without /api/ gets /api/v1 in front)')
    .option('-q, --query <key=value>', 'a query parameter (repeatable)', collect)
    .option('-d, --data <json>', 'the body: JSON, @file.json, or - for stdin')
    .addHelpText(
      'after',
      `${examples(
        'loanctl api GET /loan_request --query product-id=12 --query direction=DESC --query limit=5',
        'loanctl api GET /api/v1/user/actions -q action=exists -q email=ada@example.com',
        `loanctl api PUT /loan_request/172 -q product-id=12 --data '{"purpose":"stock"}'`,
        'loanctl api POST /loan_request/172/guarantor -q product-id=12 --data @guarantor.json',
      )}
Prints the envelope exactly as received, also for error replies; the exit code follows the
same mapping as every other command (1 API error, 3 auth, 4 no access, 5 network).
`,
    )
    .action(async (method: string, path: string, options) => {
      const { runApi } = await import('./run.js');
      await runApi({ method, path, ...options }, deps);
    });
};
