import { API_METHODS, type HttpMethod } from '../../contract/operations.js';
import type { Deps } from '../../deps.js';
import { LoanctlError, UsageError } from '../../errors.js';
import { readDataValue } from '../common/data.js';

export interface ApiOptions {
  method: string;
  path: string;
  query?: string[];
  data?: string;
}

export async function runApi(options: ApiOptions, deps: Deps): Promise<void> {
  const method = options.method.toUpperCase() as HttpMethod;
  if (!API_METHODS.includes(method)) {
    throw new UsageError(`Unknown method "${options.method}".`, `Use one of: ${API_METHODS.join(', ')}.`);
  }
  const { path, query } = splitPath(options.path);
  for (const pair of options.query ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--query: "${pair}" is not key=value.`, 'e.g. --query product-id=12');
    query.push([pair.slice(0, at), pair.slice(at + 1)]);
  }
  if (options.data !== undefined && method === 'GET') {
    throw new UsageError(
      `A GET request has no body; drop --data or use ${API_METHODS.filter((m) => m !== 'GET' && m !== 'DELETE').join('/')}.`,
    );
  }
  const body = options.data === undefined ? undefined : await readDataValue(options.data, deps);

  const grouped: Record<string, string[]> = {};
  for (const [key, value] of query) grouped[key] = [...(grouped[key] ?? []), value];

  const api = await deps.api();
  try {
    const result = await api.request(method, path, { query: grouped, body });
    print(result.rawBody, deps);
  } catch (error) {
    // An error envelope is still the answer the operator asked to see.
    if (error instanceof LoanctlError && error.reply?.envelope !== undefined) {
      print(error.reply.rawBody, deps);
      error.reply.shown = true;
    }
    throw error;
  }
}

function print(rawBody: string, deps: Deps) {
  deps.io.stdout.write(rawBody.endsWith('\n') ? rawBody : `${rawBody}\n`);
}

/** `/loan_request?x=1` → path `/api/v1/loan_request` and query [['x','1']]. */
function splitPath(input: string): { path: string; query: [string, string][] } {
  const at = input.indexOf('?');
  let path = at >= 0 ? input.slice(0, at) : input;
  const query: [string, string][] = at >= 0 ? [...new URLSearchParams(input.slice(at + 1))] : [];
  if (/^[a-z]+:\/\//i.test(path)) {
    throw new UsageError('Give a path, not a full URL.', 'The base URL comes from the profile or --base-url.');
  }
  if (!path.startsWith('/')) path = `/${path}`;
  if (!path.startsWith('/api/')) path = `/api/v1${path}`;
  return { path, query };
}
