/**
 * The entry of `loanctl/sandbox` (package.json `exports`): it says which Node it needs before
 * anything loads node:sqlite, which an older Node lacks (there the import itself would fail with
 * a message about a module, not about the Node). The API is ./sandbox-api.ts.
 */
import { unsupportedNode } from './node-support.js';

const refusal = unsupportedNode("loanctl/sandbox (the sandbox for a lender's own tests)");
if (refusal) throw new Error(refusal);

const api = await import('./sandbox-api.js');
export const startSandbox = api.startSandbox;
