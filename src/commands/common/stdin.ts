/**
 * Reading from stdin, for `--data -`, `--api-key-stdin` and `--password-stdin`: secrets come
 * through stdin or a masked prompt so they stay out of shell history and the process list.
 */
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';

export async function readStdin(deps: Pick<Deps, 'io'>, what: string): Promise<string> {
  const stdin = deps.io.stdin;
  if (stdin.isTTY) {
    throw new UsageError(
      `${what}: stdin is a terminal, not a pipe.`,
      `Pipe the value in, e.g. printf '%s' "$VALUE" | loanctl …`,
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export interface SecretOptions {
  /** The flag that reads it from stdin, e.g. `--api-key-stdin`. */
  stdinFlag: string;
  /** Whether that flag was given. */
  fromStdin: boolean | undefined;
  /** The masked prompt's question. */
  prompt: string;
  /** What it is, for messages: "API key", "password". */
  what: string;
  /** An example command line that pipes it in. */
  example: string;
  /** Keep surrounding spaces (a password may start or end with one); an API key is trimmed. */
  keepSpaces?: boolean;
}

/**
 * A secret from stdin (with its flag), else a masked prompt on an interactive terminal, else a
 * UsageError (exit 2) naming the flag. The final newline of stdin is dropped, and surrounding
 * whitespace too unless `keepSpaces` is set.
 */
export async function readSecret(
  deps: Pick<Deps, 'io' | 'prompter' | 'isInteractive'>,
  options: SecretOptions,
): Promise<string> {
  let value: string;
  if (options.fromStdin) {
    value = (await readStdin(deps, options.stdinFlag)).replace(/\r?\n$/, '');
  } else if (deps.isInteractive()) {
    value = await deps.prompter.password(options.prompt);
  } else {
    throw new UsageError(
      `No ${options.what} given, and this is not an interactive terminal to ask on.`,
      `Pipe it in with ${options.stdinFlag}, e.g. ${options.example}`,
    );
  }
  if (!options.keepSpaces) value = value.trim();
  if (value === '')
    throw new UsageError(`The ${options.what} is empty.`, `Give it with ${options.stdinFlag} or at the prompt.`);
  return value;
}
