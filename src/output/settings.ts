/**
 * Output settings that need no config file: format, fields, raw, colour (conventions.md, "Output").
 */
import type { Env, GlobalOptions, Io, OutputFormat, OutputStream } from '../deps.js';
import { UsageError } from '../errors.js';

export interface OutputSettings {
  output: OutputFormat;
  fields: string[] | undefined;
  raw: boolean;
  /** `--bom`: CSV begins with the byte-order mark Excel needs to read UTF-8. */
  bom?: boolean;
  color: boolean;
  /** The terminal's width, when stdout is one: tables are fitted to it. */
  width?: number | undefined;
}

export function resolveOutputSettings(globals: GlobalOptions, env: Env, io: Io): OutputSettings {
  // Checked where the format is chosen (./formats/index.ts `chooseFormat`), the one place.
  const output = globals.output ?? (isTty(io.stdout) ? 'table' : 'json');
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
    bom: Boolean(globals.bom),
    color: colorEnabled(globals, env, io.stdout),
    width: isTty(io.stdout) ? io.stdout.columns : undefined,
  };
}

export function isTty(stream: OutputStream | { isTTY?: boolean }): boolean {
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

export function parseFields(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const fields = value
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  if (fields.length === 0) throw new UsageError('--fields: give at least one field name, e.g. --fields id,status');
  return fields;
}
