/**
 * `--data JSON|@file.json|-` for every command that sends a body: the starting object, whose
 * fields the command's flags then override (see src/input/body.ts's buildBody).
 */
import { readFile } from 'node:fs/promises';
import { INEXACT_NUMBER_RULE, parseExactJson } from '../../contract/exact-json.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { readStdin } from './stdin.js';

/** Parses `--data`: inline JSON, `@path` (a file), or `-` / `@-` (stdin). Any JSON value. */
export async function readDataValue(value: string, deps: Pick<Deps, 'io'>): Promise<unknown> {
  let text: string;
  let source: string;
  if (value === '-' || value === '@-') {
    text = await readStdin(deps, '--data -');
    source = '--data from stdin';
  } else if (value.startsWith('@')) {
    const path = value.slice(1);
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `--data: cannot read ${path}${code === 'ENOENT' ? ': no such file' : code ? ` (${code})` : ''}.`,
      );
    }
    source = `--data file ${path}`;
  } else {
    text = value;
    source = '--data';
  }
  let parsed: ReturnType<typeof parseExactJson>;
  try {
    parsed = parseExactJson(text);
  } catch (error) {
    throw new UsageError(
      `${source} is not valid JSON: ${(error as Error).message}.`,
      `Give an object like '{"purpose":"stock"}', @file.json, or - to read stdin.`,
    );
  }
  if (!parsed.ok) {
    throw new UsageError(
      `${source} has a number that cannot be sent as written: ${parsed.number}.`,
      `${INEXACT_NUMBER_RULE[0]?.toUpperCase()}${INEXACT_NUMBER_RULE.slice(1)}.`,
    );
  }
  return parsed.value;
}

/** `--data` for a request body: must be a JSON object. Undefined when the flag was not given. */
export async function readDataObject(
  value: string | undefined,
  deps: Pick<Deps, 'io'>,
): Promise<Record<string, unknown> | undefined> {
  if (value === undefined) return undefined;
  const data = await readDataValue(value, deps);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new UsageError('--data must be a JSON object, e.g. {"purpose":"stock"}.');
  }
  return data as Record<string, unknown>;
}
