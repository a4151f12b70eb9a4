/**
 * The questions of the guided flow, one function per step: each asks through the Prompter, checks
 * every answer as it is typed with the flag's parser and the contract's schema (src/prompts/ask.ts),
 * and returns the body to send. Nothing here sends anything.
 */
import { bodySchema, fieldSchema } from '../../contract/field-schemas.js';
import type { BodyKey, BodyOf } from '../../contract/fields.js';
import { UsageError } from '../../errors.js';
import { parserOf } from '../../input/field-parsers.js';
import { parseAmount, parseEmail, parsePhone, parseText } from '../../input/values.js';
import { ask, askRequired, choose } from '../../prompts/ask.js';
import type { Choice, Prompter } from '../../prompts/prompter.js';
import { STEPS, type StepContext, type StepDef, type StepId } from './steps.js';

/** An operation's body schema, its result typed as the operation's fields say (the field table). */
export function typedBody<K extends BodyKey>(key: K) {
  const schema = bodySchema(key);
  return { shape: schema.shape, parse: (value: unknown) => schema.parse(value) as BodyOf<K> };
}

const UserCreateRequest = typedBody('createUser');
const LoanRequestCreate = typedBody('createLoanRequest');

export function askBorrowerEmail(prompter: Prompter): Promise<string> {
  return askRequired(prompter, {
    label: "Borrower's e-mail",
    parse: parseEmail,
    schema: UserCreateRequest.shape.email,
  });
}

/** Every field of a new borrower whose e-mail is known. */
export async function askNewBorrower(prompter: Prompter, email: string): Promise<BodyOf<'createUser'>> {
  const shape = UserCreateRequest.shape;
  const firstname = await askRequired(prompter, { label: 'First name', parse: parseText, schema: shape.firstname });
  const lastname = await askRequired(prompter, { label: 'Last name', parse: parseText, schema: shape.lastname });
  const phone = await askRequired(prompter, {
    label: 'Phone',
    hint: 'e.g. 08012345678',
    parse: parsePhone,
    schema: shape.phone,
  });
  const gender = await askRequired(prompter, {
    label: 'Gender',
    hint: 'e.g. female, male',
    parse: parseText,
    schema: shape.gender,
  });
  const password = await askRequired(prompter, {
    label: "Borrower's password",
    parse: (raw, source) => {
      if (raw === '') throw new UsageError(`${source} must not be empty.`);
      return raw;
    },
    schema: shape.password,
    secret: true,
  });
  return UserCreateRequest.parse({ firstname, lastname, email, phone, gender, password });
}

export async function askLoanRequest(prompter: Prompter): Promise<BodyOf<'createLoanRequest'>> {
  const shape = LoanRequestCreate.shape;
  const amount = await askRequired(prompter, {
    label: 'Amount requested',
    hint: 'e.g. 50000',
    parse: parseAmount,
    schema: shape.amount,
  });
  const purpose = await askRequired(prompter, {
    label: 'Purpose of the loan',
    parse: parseText,
    schema: shape.purpose,
  });
  return LoanRequestCreate.parse({ amount, purpose });
}

/** The menu's answer: a step to add, the review screen, or stop here. */
type MenuChoice = StepId | 'review' | 'later';

/** What next: the steps that remain (with how many of each so far), review, or finish later. */
export function chooseNext(prompter: Prompter, remaining: readonly StepDef[], done: (id: StepId) => number) {
  const anything = STEPS.some((step) => done(step.id) > 0);
  const choices: Choice<MenuChoice>[] = remaining.map((step) => {
    const count = done(step.id);
    const title = step.title.toLowerCase();
    const name = step.once
      ? `Add ${title}`
      : `Add ${count > 0 ? 'another' : 'a'} ${title}${count > 0 ? ` (${count} so far)` : ''}`;
    return { value: step.id, name };
  });
  choices.push({
    value: 'review',
    name: 'Review and submit',
    ...(!anything && { disabled: 'add at least one of the above first' }),
  });
  choices.push({ value: 'later', name: 'Finish later (the loan request stays saved)' });
  return choose(prompter, 'What next?', choices);
}

/** The questions of one optional step, in order; the body to send, checked by the step's schema. */
export async function askStep(prompter: Prompter, step: StepDef, context: StepContext) {
  const body: Record<string, unknown> = {};
  for (const field of step.fields) {
    const { def } = field;
    if (field.when && !field.when(body)) continue;
    if (field.fixed) {
      body[def.name] = field.fixed(context);
      continue;
    }
    const label = def.question ?? def.name;
    if (def.kind === 'bool') {
      body[def.name] = await prompter.confirm(label, { default: false });
      continue;
    }
    const value = await ask(prompter, {
      label,
      parse: parserOf(def),
      schema: fieldSchema(def),
      hint: def.hint,
      optional: !def.required,
      default: field.default?.(context) || undefined,
    });
    if (value !== undefined) body[def.name] = value;
  }
  return bodySchema(step.endpoint).parse(body);
}
