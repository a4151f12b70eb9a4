/**
 * The Prompter seam: commands ask through this interface, production answers with inquirer,
 * tests with a fake. Prompts draw on stderr, so stdout carries only data even while prompting.
 * Callers check `deps.isInteractive()` first; a prompt is never the only way to give a value.
 */
import type { Io } from '../deps.js';

export interface Prompter {
  /** A masked prompt; the answer is never echoed. */
  password(message: string): Promise<string>;
  input(message: string, options?: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
}

export async function inquirerPrompter(io: Io): Promise<Prompter> {
  const prompts = await import('@inquirer/prompts');
  const context = { input: io.stdin, output: io.stderr };
  return {
    password: (message) => prompts.password({ message, mask: '*' }, context),
    input: (message, options = {}) =>
      prompts.input({ message, default: options.default, validate: options.validate }, context),
    confirm: (message, options = {}) => prompts.confirm({ message, default: options.default ?? false }, context),
  };
}
