/** `loanctl sandbox openapi`: print the API's OpenAPI 3.1 document, derived from the contract. */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { openOutput } from '../../output/output.js';
import { openApiDocument } from '../../sandbox/openapi.js';
import { VERSION } from '../../version.js';
import { DEFAULT_SANDBOX_URL } from '../common/sandbox-url.js';

/** Where `loanctl sandbox start` listens by default. */
const DEFAULT_SERVER_URL = DEFAULT_SANDBOX_URL;

export interface SandboxOpenapiOptions {
  serverUrl?: string;
}

export async function runSandboxOpenapi(options: SandboxOpenapiOptions, deps: Deps): Promise<void> {
  const serverUrl = checkedServerUrl(options.serverUrl ?? DEFAULT_SERVER_URL);
  // A document, not a table: JSON even on a terminal.
  const format = deps.globals.output ?? 'json';
  if (format === 'table' || format === 'csv' || format === 'xlsx') {
    throw new UsageError(
      `sandbox openapi prints JSON; -o ${format} is not one of its formats.`,
      'Use -o json (the default) or -o ndjson (one line).',
    );
  }
  const output = await openOutput(deps, { names: () => [] }, { format });
  await output.print(openApiDocument({ serverUrl, version: VERSION }));
}

/** An http(s) URL without a trailing slash, else a usage error naming the flag. */
function checkedServerUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`--server-url must be an http or https URL, e.g. ${DEFAULT_SERVER_URL}; got "${text}".`);
  }
  return text.replace(/\/+$/, '');
}
