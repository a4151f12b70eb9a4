/**
 * The seed file (`loanctl sandbox seed FILE`; docs/sandbox.md#seed-files): JSON or YAML, a list of named
 * steps, each one operation of the API (its key in the contract table, e.g. `createUser`) with
 * its path params, query and body, optionally repeated `count` times and run at a clock offset
 * (`at: -90d`). Strings may refer to earlier results: `${borrower.id}`, `${i}` (docs/sandbox.md#seed-files).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { Lexer, parse as parseYaml } from 'yaml';
import * as z from 'zod';
import { ENDPOINTS, type EndpointKey } from '../../contract/endpoints.js';
import { durationMs } from '../../input/duration.js';

export class SeedError extends Error {
  override name = 'SeedError';
}

/**
 * What a seed file may be: a file read from `/dev/zero`, a 50 MB scalar or brackets nested a
 * million deep would otherwise take the machine's memory or minutes before the first step
 * (docs/sandbox.md#seed-files). `calls` also makes a typo such as `count: 1000000` fail fast.
 */
const SEED_LIMITS = { bytes: 1024 * 1024, depth: 32, steps: 1_000, calls: 20_000 } as const;
const KEYS = new Set<string>(ENDPOINTS.map((def) => def.key));
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const Step = z
  .object({
    name: z.string().regex(NAME, 'a name is letters, digits and "_", not starting with a digit'),
    op: z.string().refine((key) => KEYS.has(key), { message: 'not an operation of the API (e.g. createUser)' }),
    count: z.number().int().min(1).max(SEED_LIMITS.calls).optional(),
    at: z
      .string()
      .refine((text) => durationMs(text, { signed: true }) !== undefined, {
        message: 'a clock offset such as -90d, -2h or 30m',
      })
      .optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    query: z.record(z.string(), z.unknown()).optional(),
    body: z.unknown().optional(),
  })
  .strict();

const SeedFile = z
  .object({ steps: z.array(Step).min(1).max(SEED_LIMITS.steps, `a seed file has at most ${SEED_LIMITS.steps} steps`) })
  .strict();

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
  const text = readSeedText(path);
  const json = /\.json$/i.test(path);
  let raw: unknown;
  try {
    if (!json) checkFlowDepth(text, path);
    raw = json ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    if (error instanceof SeedError) throw error;
    // The parsers recurse: nesting a few thousand deep overflows the stack before our check runs.
    if (/call stack/i.test((error as Error).message)) throw tooDeep(path);
    throw new SeedError(`${path} is not valid ${json ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (depthOver(raw, SEED_LIMITS.depth)) throw tooDeep(path);
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
    atMs: step.at === undefined ? 0 : (durationMs(step.at, { signed: true }) as number),
    params: step.params ?? {},
    query: step.query ?? {},
    body: step.body,
  }));
  const calls = steps.reduce((sum, step) => sum + step.count, 0);
  if (calls > SEED_LIMITS.calls)
    throw new SeedError(`${path} makes ${calls} calls; at most ${SEED_LIMITS.calls} are allowed`);
  return steps;
}

/**
 * The file's text, read only if it is a regular file and at most SEED_LIMITS.bytes long. Opened
 * without blocking, so a FIFO with no writer is refused at once rather than waited on.
 */
function readSeedText(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new SeedError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new SeedError(`${path} is not a regular file: give the path of a seed file`);
    // One byte more than allowed tells a file over the limit (or one growing while read).
    const buffer = Buffer.alloc(SEED_LIMITS.bytes + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) {
      read = readSync(fd, buffer, length, buffer.length - length, null);
    }
    if (length > SEED_LIMITS.bytes) {
      throw new SeedError(`${path} is larger than ${SEED_LIMITS.bytes / 1024 / 1024} MiB, the most a seed file may be`);
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

function tooDeep(path: string): SeedError {
  return new SeedError(`${path} nests values more than ${SEED_LIMITS.depth} deep, the most a seed file may`);
}

/**
 * Flow collections (`[[[…`) nested past the limit, found by the YAML lexer before the parser
 * runs: the lexer stops at the first one too deep, where the parser would take minutes on a
 * file within the size limit.
 */
function checkFlowDepth(text: string, path: string): void {
  let depth = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') depth++;
    else if (token === ']' || token === '}') depth--;
    if (depth > SEED_LIMITS.depth) throw tooDeep(path);
  }
}

/** True when `value` nests deeper than `limit` (looks no deeper than that). */
function depthOver(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit === 0) return true;
  return Object.values(value).some((item) => depthOver(item, limit - 1));
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
