/**
 * For every operation that changes something: the loanctl command that shows whether it was
 * applied (its row's `check`, ./table/). A write that was sent and got no complete answer (a
 * timeout, a dropped connection, a 5xx) may have been applied, so it is never simply repeated; the error names this command
 * instead (src/http/outcome.ts), and so does a bulk run's result row.
 *
 * Placeholders: `:id` and `:user_id` are the path's, `:email` is the body's `email`. A command on
 * a loan request gets `--product N` when the product is known.
 */
import { shellQuote } from '../shell-quote.js';
import { type HttpMethod, OPERATIONS, type OperationDef } from './operations.js';

/** The check command of each write operation (its row's `check`), by operation key. */
export const CHECK_COMMANDS: Readonly<Record<string, string>> = Object.fromEntries(
  (OPERATIONS as readonly OperationDef[]).flatMap((row) => (row.check === undefined ? [] : [[row.key, row.check]])),
);

export interface CheckFacts {
  params?: Record<string, string | number> | undefined;
  body?: unknown;
  productId?: number | string | undefined;
  /** Global flags that must come along to reach the same API, e.g. `--profile prod`. */
  globals?: readonly string[];
}

/** The command for operation `key`, or undefined when it is not a write or a value is missing. */
export function checkCommand(key: string, facts: CheckFacts): string | undefined {
  const template = CHECK_COMMANDS[key];
  if (template === undefined) return undefined;
  const email = (facts.body as { email?: unknown } | undefined)?.email;
  const values: Record<string, string | number> = { ...facts.params };
  if (typeof email === 'string') values.email = email;
  const words: string[] = ['loanctl'];
  for (const word of template.split(' ')) {
    if (!word.startsWith(':')) {
      words.push(word);
      continue;
    }
    const value = values[word.slice(1)];
    if (value === undefined || String(value) === '') return undefined;
    words.push(shellQuote(String(value)));
  }
  if (words[1] === 'loan' && facts.productId !== undefined && String(facts.productId) !== '') {
    words.push('--product', shellQuote(String(facts.productId)));
  }
  return [...words, ...(facts.globals ?? []).map(shellQuote)].join(' ');
}

/**
 * The write operation a raw request (`loanctl api POST …`) is, with its path parameters, when
 * its method and path are one of the table's.
 */
export function matchOperation(
  method: HttpMethod,
  path: string,
): { key: string; params: Record<string, string> } | undefined {
  for (const candidate of OPERATIONS as readonly OperationDef[]) {
    if (candidate.method !== method) continue;
    for (const template of [candidate.path, ...(candidate.otherPaths ?? [])]) {
      const names: string[] = [];
      const pattern = template.replace(/:([a-z_]+)/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      const found = new RegExp(`^${pattern}/?$`).exec(path);
      if (!found) continue;
      const params = Object.fromEntries(names.map((name, index) => [name, decoded(found[index + 1] ?? '')]));
      return { key: candidate.key, params };
    }
  }
  return undefined;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
