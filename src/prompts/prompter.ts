/**
 * The Prompter seam: commands ask through this interface, production answers with inquirer,
 * tests with a fake. Prompts draw on stderr, so stdout carries only data even while prompting.
 * Callers check `deps.isInteractive()` first; a prompt is never the only way to give a value.
 *
 * Ctrl-C at a prompt rejects with inquirer's ExitPromptError (main.ts maps it to exit 130); a
 * guided flow catches it first to say what it already created (src/flows/loan-new/session.ts).
 */
import type { Io } from '../basics.js';

/** Checks an answer as it is typed: true, or the reason it is wrong (shown, and the question asked again). */
export type Validate = (value: string) => true | string;

export interface Choice<T> {
  value: T;
  /** What the menu shows. */
  name: string;
  /** A line shown under the menu while this choice is highlighted. */
  description?: string;
  /** Shown but not selectable; the text says why. */
  disabled?: string;
}

export interface Prompter {
  /** A masked prompt; the answer is never echoed. */
  password(message: string, options?: { validate?: Validate }): Promise<string>;
  input(message: string, options?: { default?: string; validate?: Validate }): Promise<string>;
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
  /**
   * A menu, chosen with the arrow keys. Optional so a prompter that only asks for text (an older
   * fake) still fits; `choose` in ./ask.ts falls back to a numbered list typed as text.
   */
  select?<T>(message: string, choices: readonly Choice<T>[], options?: { default?: T }): Promise<T>;
  /**
   * A line the next question refers to (approve's review: "despite the warning above"), shown
   * where the questions are drawn, so `--quiet`, which silences notices, cannot hide it from the
   * person answering. Optional like `select`: without it the caller prints a notice.
   */
  note?(line: string): void;
}

export async function inquirerPrompter(io: Io): Promise<Required<Prompter>> {
  const prompts = await import('@inquirer/prompts');
  const context = { input: io.stdin, output: io.stderr };
  return {
    password: (message, options = {}) =>
      prompts.password({ message, mask: '*', ...(options.validate && { validate: options.validate }) }, context),
    input: (message, options = {}) =>
      prompts.input({ message, default: options.default, validate: options.validate }, context),
    confirm: (message, options = {}) => prompts.confirm({ message, default: options.default ?? false }, context),
    note: (line) => io.stderr.write(`${line}\n`),
    select: <T>(message: string, choices: readonly Choice<T>[], options: { default?: T } = {}) =>
      prompts.select<T>(
        {
          message,
          choices: choices.map((choice) => ({
            value: choice.value,
            name: choice.name,
            ...(choice.description !== undefined && { description: choice.description }),
            ...(choice.disabled !== undefined && { disabled: choice.disabled }),
          })),
          default: options.default,
          pageSize: Math.max(choices.length, 7),
        },
        context,
      ),
  };
}
