/**
 * Ctrl-C in the guided flow, wherever it comes: at a prompt (inquirer's ExitPromptError, thrown
 * by the prompter) or while a request is out (SIGINT, when no prompt is open to catch it). After
 * SIGINT every later question and request stops at once, and the one out is no longer awaited.
 */
import type { EventEmitter } from 'node:events';
import { CancelledError } from '../../errors.js';
import type { Choice, Prompter } from '../../prompts/prompter.js';

/** Where SIGINT comes from: the process, or in tests an EventEmitter. */
export type Signals = Pick<EventEmitter, 'on' | 'off'>;

/** Ctrl-C between prompts (SIGINT while a request is out). */
export class Interrupted extends CancelledError {}

/** A Ctrl-C at a prompt, or SIGINT: either ends the flow with the summary and exit 130. */
export function isCancel(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof Error && error.name === 'ExitPromptError');
}

export class CtrlC {
  private pressed = false;
  private reject: ((error: Error) => void) | undefined;
  /** Rejects at the first SIGINT; raced against every request. */
  private readonly interruption: Promise<never>;

  constructor(private readonly signals: Signals) {
    this.interruption = new Promise<never>((_resolve, reject) => {
      this.reject = reject;
    });
    this.interruption.catch(() => {});
  }

  private readonly onSigint = () => {
    this.pressed = true;
    this.reject?.(new Interrupted());
  };

  listen(): void {
    this.signals.on('SIGINT', this.onSigint);
  }

  stopListening(): void {
    this.signals.off('SIGINT', this.onSigint);
  }

  /** `work`, unless Ctrl-C comes first (then Interrupted, and `work` is left to itself). */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.pressed) return Promise.reject(new Interrupted());
    return Promise.race([work, this.interruption]);
  }

  /** The prompter, each of whose questions first checks for a Ctrl-C that came while none was open. */
  guard(real: Prompter): Prompter {
    const guarded =
      <A extends unknown[], R>(ask: (...args: A) => Promise<R>) =>
      (...args: A): Promise<R> =>
        this.pressed ? Promise.reject(new Interrupted()) : ask(...args);
    return {
      password: guarded((message, options) => real.password(message, options)),
      input: guarded((message, options) => real.input(message, options)),
      confirm: guarded((message, options) => real.confirm(message, options)),
      ...(real.select && {
        select: <T>(message: string, choices: readonly Choice<T>[], options?: { default?: T }) =>
          guarded(() => selectOn(real, message, choices, options))(),
      }),
      ...(real.note && { note: (line: string) => real.note?.(line) }),
    };
  }

  /** True once SIGINT came (nothing new may start). */
  get wasPressed(): boolean {
    return this.pressed;
  }
}

/** The prompter's menu (only asked of a prompter that has one). */
function selectOn<T>(prompter: Prompter, message: string, choices: readonly Choice<T>[], options?: { default?: T }) {
  if (!prompter.select) throw new Error('this prompter has no menu');
  return prompter.select(message, choices, options);
}
