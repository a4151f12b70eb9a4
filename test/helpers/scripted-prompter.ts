/**
 * A scripted prompter for the guided questions: each question must match the next entry of the
 * script; an answer its `validate` refuses is recorded with the reason and the same question takes
 * the next entry (as inquirer re-asks). CTRL_C answers as inquirer does on Ctrl-C (ExitPromptError).
 */
import type { Choice, Prompter } from '../../src/prompts/prompter.js';

export const CTRL_C = Symbol('Ctrl-C');
export type Answer = string | boolean | typeof CTRL_C;

class ExitPromptError extends Error {
  override name = 'ExitPromptError';
}

export interface Asked {
  kind: 'input' | 'password' | 'confirm' | 'select';
  message: string;
  answer?: Answer;
  /** The reason `validate` gave, when the answer was refused. */
  refused?: string;
  /** The menu's choices (select). */
  choices?: Array<{ value: unknown; name: string; disabled?: string }>;
}

export function scripted(script: Array<[RegExp, Answer]>, options: { select?: boolean } = {}) {
  const asked: Asked[] = [];
  const next = (kind: Asked['kind'], message: string): Answer => {
    const entry = script.shift();
    if (!entry) throw new Error(`no answer scripted for ${kind} "${message}"`);
    const [pattern, answer] = entry;
    if (!pattern.test(message)) throw new Error(`expected a question matching ${pattern}, got ${kind} "${message}"`);
    if (answer === CTRL_C) {
      asked.push({ kind, message, answer });
      throw new ExitPromptError('User force closed the prompt with SIGINT');
    }
    return answer;
  };
  const text =
    (kind: 'input' | 'password') =>
    async (message: string, opts: { default?: string; validate?: (value: string) => true | string } = {}) => {
      for (;;) {
        const answer = next(kind, message);
        const raw = answer === '' && opts.default !== undefined ? opts.default : String(answer);
        const verdict = opts.validate ? opts.validate(raw) : true;
        if (verdict === true) {
          asked.push({ kind, message, answer: raw });
          return raw;
        }
        asked.push({ kind, message, answer: raw, refused: verdict });
      }
    };
  const prompter: Prompter = {
    input: text('input'),
    password: text('password'),
    confirm: async (message) => {
      const answer = next('confirm', message);
      asked.push({ kind: 'confirm', message, answer });
      return answer === true;
    },
  };
  if (options.select !== false) {
    prompter.select = async <T>(message: string, choices: readonly Choice<T>[]) => {
      const answer = next('select', message);
      const choice = choices.find((candidate) => candidate.value === answer);
      if (!choice) throw new Error(`"${String(answer)}" is not a choice of "${message}"`);
      if (choice.disabled) throw new Error(`"${String(answer)}" is disabled: ${choice.disabled}`);
      asked.push({ kind: 'select', message, answer, choices: choices.map((c) => ({ ...c })) });
      return choice.value;
    };
  }
  return { prompter, asked, remaining: script };
}

/** A script: each question's expected text, and its answer. */
export type Script = Array<[RegExp, Answer]>;
