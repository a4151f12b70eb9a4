/**
 * The one place an output format is chosen (docs/guide.md#output-formats): `-o`, else `table` when
 * stdout is a terminal and `json` otherwise. A format that is none of them — from anywhere:
 * `-o` (commander checks it too), a caller's `globals.output`, `render({ format })` — is exit 2,
 * never a table by default.
 */
import { OUTPUT_FORMATS, type OutputFormat } from '../../basics.js';
import { UsageError } from '../../errors.js';
import { escapeControl } from '../escape.js';
import { csv } from './csv.js';
import type { Formatter } from './formatter.js';
import { json } from './json.js';
import { ndjson } from './ndjson.js';
import { table } from './table.js';
import { xlsx } from './xlsx.js';

const FORMATTERS: Record<OutputFormat, Formatter> = { table, json, ndjson, csv, xlsx };

export function chooseFormat(settings: { output: string }): Formatter {
  const { output } = settings;
  if (!Object.hasOwn(FORMATTERS, output)) {
    throw new UsageError(
      `--output: "${escapeControl(String(output))}" is not a format.`,
      `Use one of: ${OUTPUT_FORMATS.join(', ')}.`,
    );
  }
  return FORMATTERS[output as OutputFormat];
}
