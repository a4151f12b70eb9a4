/**
 * The seed file (`loanctl sandbox seed FILE`; README "Seed files"): JSON or YAML, a list of named
 * steps, each one operation of the API (its key in the contract table, e.g. `createUser`) with
 * its path params, query and body, optionally repeated `count` times and run at a clock offset
 * (`at: -90d`). Strings may refer to earlier results: `${borrower.id}`, `${i}` (README).
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';
import { ENDPOINTS, type EndpointKey } from '../../contract/endpoints.js';
import { parseDuration } from './duration.js';

export class SeedError extends Error {
  override name = 'SeedError';
}

/** The most steps a file may run in all (a typo such as `count: 1000000` fails fast). */
export const MAX_SEED_CALLS = 20_000;
const KEYS = new Set<string>(ENDPOINTS.map((def) => def.key));
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const Step = z
  .object({
    name: z.string().regex(NAME, 'a name is letters, digits and "_", not starting with a digit'),
    op: z.string().refine((key) => KEYS.has(key), { message: 'not an operation of the API (e.g. createUser)' }),
    count: z.number().int().min(1).max(MAX_SEED_CALLS).optional(),
    at: z
      .string()
      .refine((text) => parseDuration(text) !== undefined, { message: 'a clock offset such as -90d, -2h or 30m' })
      .optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    query: z.record(z.string(), z.unknown()).optional(),
    body: z.unknown().optional(),
  })
  .strict();

const SeedFile = z.object({ steps: z.array(Step).min(1) }).strict();

export interface SeedStep {
  name: string;
  op: EndpointKey;
  count: number;
  /** Clock offset of this step's timestamps (ms). */
  atMs: number;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/** Reads and checks a seed file; every problem is one SeedError naming where it is. */
export function loadSeedFile(path: string): SeedStep[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SeedError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = /\.json$/i.test(path) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new SeedError(
      `${path} is not valid ${/\.json$/i.test(path) ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  const parsed = SeedFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    const where = issue.path.length > 0 ? issue.path.join('.') : 'the file';
    throw new SeedError(`${path}: ${where}: ${issue.message}`);
  }
  const steps = parsed.data.steps.map((step) => ({
    name: step.name,
    op: step.op as EndpointKey,
    count: step.count ?? 1,
    atMs: step.at === undefined ? 0 : (parseDuration(step.at) as number),
    params: step.params ?? {},
    query: step.query ?? {},
    body: step.body,
  }));
  const calls = steps.reduce((sum, step) => sum + step.count, 0);
  if (calls > MAX_SEED_CALLS)
    throw new SeedError(`${path} makes ${calls} calls; at most ${MAX_SEED_CALLS} are allowed`);
  return steps;
}

/** One step's results so far, by step name. */
export type SeedResults = Map<string, unknown[]>;

const REFERENCE = /\$\{([^}]*)\}/g;

/**
 * `value` with every `${…}` filled in: `${i}` is the repetition (1…count), `${step.path}` the
 * result of an earlier step at the same repetition (wrapping round when it ran fewer times). A
 * string that is one reference keeps the value's type (a number stays a number).
 */
export function fillReferences(value: unknown, results: SeedResults, i: number): unknown {
  if (typeof value === 'string') {
    const whole = /^\$\{([^}]*)\}$/.exec(value);
    if (whole) return lookUp(whole[1] as string, results, i);
    return value.replace(REFERENCE, (_match, expression: string) => String(lookUp(expression, results, i)));
  }
  if (Array.isArray(value)) return value.map((item) => fillReferences(item, results, i));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillReferences(item, results, i)]));
  }
  return value;
}

function lookUp(expression: string, results: SeedResults, i: number): unknown {
  const path = expression.trim().split('.');
  const [name, ...fields] = path;
  if (name === 'i' && fields.length === 0) return i;
  const runs = results.get(name ?? '');
  if (!runs || runs.length === 0) {
    throw new SeedError(`\${${expression}} refers to "${name}", which is not an earlier step`);
  }
  let value: unknown = runs[(i - 1) % runs.length];
  for (const field of fields) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
  }
  if (value === undefined) throw new SeedError(`\${${expression}}: the result of "${name}" has no ${fields.join('.')}`);
  return value;
}
