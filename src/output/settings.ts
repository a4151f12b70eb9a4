/**
 * Output settings: format, fields, raw, colour, BOM (docs/guide.md#output-formats). Only the BOM of
 * `-o csv` may come from the profile (`csvBom`), and only then is the config file read.
 */

import type { Env, GlobalOptions, Io, OutputFormat, OutputStream } from '../basics.js';
import { openProfileStore, type Profile, pickProfile } from '../config/store.js';
import { UsageError } from '../errors.js';

export interface OutputSettings {
  output: OutputFormat;
  fields: string[] | undefined;
  raw: boolean;
  /** `--bom` (else the profile's `csvBom`): CSV begins with the byte-order mark Excel needs to read UTF-8. */
  bom?: boolean;
  color: boolean;
  /** The terminal's width, when stdout is one: tables are fitted to it. */
  width?: number | undefined;
  /** `--jq EXPR`: the output is JSON, filtered by it. */
  jq?: string | undefined;
}

/**
 * `profile`: the profile in use, when the caller has it; else, for `-o csv` without `--bom` or
 * `--no-bom`, it is read from the config file.
 */
export function resolveOutputSettings(
  globals: GlobalOptions,
  env: Env,
  io: Io,
  profile: () => Profile | undefined = () => profileInUse(globals, env, io),
): OutputSettings {
  if (globals.jq !== undefined) checkJqFlags(globals);
  // Checked where the format is chosen (./formats/index.ts `chooseFormat`), the one place.
  const output = globals.jq !== undefined ? 'json' : (globals.output ?? (isTty(io.stdout) ? 'table' : 'json'));
  if (output === 'xlsx' && isTty(io.stdout)) {
    throw new UsageError(
      '-o xlsx writes a spreadsheet file, not text for a terminal.',
      'Send it to a file: loanctl loan list -o xlsx > loans.xlsx',
    );
  }
  if (globals.raw && globals.fields !== undefined) {
    throw new UsageError(
      '--raw prints the whole envelope as received, so --fields cannot pick from it.',
      'Leave out --raw, or --fields.',
    );
  }
  return {
    output,
    fields: parseFields(globals.fields),
    raw: Boolean(globals.raw),
    // The flag (--bom, --no-bom) wins over the profile; other formats have no BOM to ask about.
    bom: globals.bom ?? (output.toLowerCase() === 'csv' && profile()?.csvBom === true),
    color: colorEnabled(globals, env, io.stdout),
    width: isTty(io.stdout) ? io.stdout.columns : undefined,
    jq: globals.jq,
  };
}

/** `--jq` filters JSON: another format, or fields picked before it, is a usage error, not a guess. */
function checkJqFlags(globals: GlobalOptions): void {
  if (globals.output !== undefined && globals.output.toLowerCase() !== 'json') {
    throw new UsageError(`--jq filters JSON output, so it does not mix with -o ${globals.output}.`, 'Leave out -o.');
  }
  if (globals.fields !== undefined) {
    throw new UsageError(
      '--jq picks what it prints itself, so it does not mix with --fields.',
      "Pick the fields in the jq expression: --jq '.[] | {id, amount}'.",
    );
  }
}

function profileInUse(globals: GlobalOptions, env: Env, io: Io): Profile | undefined {
  const store = openProfileStore({ env, warn: (line) => io.stderr.write(`loanctl: warning: ${line}\n`) });
  const chosen = pickProfile(globals, env, store);
  return chosen && store.get(chosen.name);
}

function isTty(stream: OutputStream | { isTTY?: boolean }): boolean {
  return stream.isTTY === true;
}

/** --no-color and NO_COLOR always win; then FORCE_COLOR; then "is it a terminal". */
export function colorEnabled(globals: GlobalOptions, env: Env, stream: OutputStream): boolean {
  if (globals.color === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return isTty(stream);
}

function parseFields(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const fields = value
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  if (fields.length === 0) throw new UsageError('--fields: give at least one field name, e.g. --fields id,status');
  return fields;
}
