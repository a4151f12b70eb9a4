/**
 * Asking for one value at a time, checked as it is typed with the same rules as the flags (the
 * parsers of src/input/values.ts, then the contract's schema of the field): a wrong answer is
 * refused with the reason and the question stays open (inquirer's `validate` returning a message).
 *
 * Nothing here loads inquirer: the Prompter does, on its first question.
 */
import type { z } from 'zod';
import { BODY_FIELDS, type BodyKey, type FieldDef } from '../contract/fields.js';
import { LoanctlError } from '../errors.js';
import type { FieldSpec } from '../input/body.js';
import type { Choice, Prompter, Validate } from './prompter.js';

export interface Question<T> {
  /** The question, and the name the reason starts with: `Amount must be more than 0 (got "0").` */
  label: string;
  /** Shown after the label in the prompt only, e.g. `e.g. 08012345678`. */
  hint?: string | undefined;
  /** Turns the text into the value to send; throws a UsageError saying what is wrong. */
  parse: (raw: string, source: string) => T;
  /** The contract's schema of this field, checked after `parse`. */
  schema?: z.ZodType | undefined;
  /** A rule of the flow on top of the contract's (e.g. not more than the amount requested). */
  check?: (value: T) => true | string;
  /** Shown as the default; Enter takes it. */
  default?: string | undefined;
  /** An empty answer leaves the field out (the result is undefined). */
  optional?: boolean;
  /** A masked prompt (passwords). */
  secret?: boolean;
}

type Checked<T> = { ok: true; value: T | undefined } | { ok: false; reason: string };

/** The answer checked by the question's rules: its value, or the reason it is refused. */
function checkAnswer<T>(question: Question<T>, raw: string): Checked<T> {
  if (question.optional && raw.trim() === '') return { ok: true, value: undefined };
  let value: T;
  try {
    value = question.parse(raw, question.label);
  } catch (error) {
    if (error instanceof LoanctlError) return { ok: false, reason: error.message };
    throw error;
  }
  if (question.schema) {
    const result = question.schema.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      return { ok: false, reason: `${question.label} ${issue?.message ?? 'is not valid'}.` };
    }
  }
  const extra = question.check?.(value) ?? true;
  if (extra !== true) return { ok: false, reason: extra };
  return { ok: true, value };
}

/** The question's rules as inquirer's `validate`: true, or the reason. */
function validatorFor<T>(question: Question<T>): Validate {
  return (raw) => {
    const checked = checkAnswer(question, raw);
    return checked.ok ? true : checked.reason;
  };
}

/** What the prompt says: the label, and how to skip an optional field. */
function promptText(question: Pick<Question<unknown>, 'label' | 'hint' | 'optional'>): string {
  const notes = [question.hint, question.optional ? 'optional, Enter to skip' : undefined].filter(Boolean);
  return notes.length > 0 ? `${question.label} (${notes.join('; ')})` : question.label;
}

/**
 * Asks until the answer passes (the prompter re-asks while `validate` returns a reason; the
 * result is checked once more, for a prompter that does not validate). Optional and empty → undefined.
 */
export async function ask<T>(prompter: Prompter, question: Question<T>): Promise<T | undefined> {
  const validate = validatorFor(question);
  for (;;) {
    const raw = question.secret
      ? await prompter.password(promptText(question), { validate })
      : await prompter.input(promptText(question), {
          validate,
          ...(question.default !== undefined && { default: question.default }),
        });
    const checked = checkAnswer(question, raw);
    if (checked.ok) return checked.value;
  }
}

/** Like `ask`, for a field that must have a value. */
export async function askRequired<T>(prompter: Prompter, question: Question<T>): Promise<T> {
  return (await ask(prompter, { ...question, optional: false })) as T;
}

/**
 * A menu: the prompter's `select` (arrow keys) when it has one, else a numbered list answered by
 * typing a number. Disabled choices are shown with their reason and cannot be taken.
 */
export async function choose<T>(
  prompter: Prompter,
  message: string,
  choices: readonly Choice<T>[],
  options: { default?: T } = {},
): Promise<T> {
  if (prompter.select) return prompter.select(message, choices, options);
  const lines = choices.map(
    (choice, index) => `  ${index + 1}) ${choice.name}${choice.disabled ? ` (${choice.disabled})` : ''}`,
  );
  const pick = (raw: string): Choice<T> | string => {
    const number = Number(raw.trim());
    const choice = Number.isInteger(number) ? choices[number - 1] : undefined;
    if (!choice) return `Type a number from 1 to ${choices.length}.`;
    return choice.disabled ? `${choice.name}: ${choice.disabled}.` : choice;
  };
  const index = options.default === undefined ? -1 : choices.findIndex((choice) => choice.value === options.default);
  for (;;) {
    const raw = await prompter.input(`${message}\n${lines.join('\n')}\n`, {
      validate: (value) => {
        const picked = pick(value);
        return typeof picked === 'string' ? picked : true;
      },
      ...(index >= 0 && { default: String(index + 1) }),
    });
    const picked = pick(raw);
    if (typeof picked !== 'string') return picked.value;
  }
}

/**
 * `user create` and `loan create` on a terminal: asks for each required field of operation `key`
 * that neither a flag nor `--data` gave, with the contract's question (src/contract/fields.ts),
 * checked like the flag would be, and returns the fields with the typed text as their value
 * (buildBody then parses it exactly as if it had been passed as the flag). Not interactive: the
 * fields come back unchanged, and buildBody's "Missing --x" is exit 2.
 */
export async function askMissingFields(
  deps: { prompter: Prompter; isInteractive(): boolean },
  key: BodyKey,
  fields: readonly FieldSpec[],
  data: Record<string, unknown> | undefined,
): Promise<FieldSpec[]> {
  if (!deps.isInteractive()) return [...fields];
  const { fieldSchema } = await import('../contract/field-schemas.js');
  const defs: readonly FieldDef[] = BODY_FIELDS[key];
  const result: FieldSpec[] = [];
  for (const field of fields) {
    const def = defs.find((candidate) => candidate.name === field.key);
    if (!def?.required || field.value !== undefined || data?.[field.key] !== undefined) {
      result.push(field);
      continue;
    }
    const parse = field.parse ?? ((raw: string) => raw);
    const validate = validatorFor({ label: def.question ?? field.key, parse, schema: fieldSchema(def) });
    let raw: string;
    do raw = await deps.prompter.input(def.question ?? field.key, { validate });
    while (validate(raw) !== true);
    result.push({ ...field, value: raw });
  }
  return result;
}
