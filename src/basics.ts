/**
 * The basic types every layer shares: the process's streams, its environment, the global flags
 * and the output formats, and a wait that an abort ends. This module imports nothing, so any layer
 * may import it without reaching the wiring (deps.ts), which sits at the top and joins the layers.
 */
import type { Readable, Writable } from 'node:stream';

export interface InputStream extends Readable {
  isTTY?: boolean;
}
export interface OutputStream extends Writable {
  isTTY?: boolean;
  columns?: number;
}

export interface Io {
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
}

export type Env = Record<string, string | undefined>;

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'xlsx'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * The root program's options, as commander parsed them (program.ts copies them here in a
 * preAction hook, so every command sees them without mapping them itself).
 * `color` and `input` are commander's names for `--no-color` and `--no-input` (default true).
 */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  output?: OutputFormat;
  fields?: string;
  /** `--bom` / `--no-bom`: CSV begins with a UTF-8 byte-order mark (for Excel); unset: the profile's `csvBom`. */
  bom?: boolean;
  raw?: boolean;
  color?: boolean;
  input?: boolean;
  debug?: boolean;
  dryRun?: boolean;
  /** Seconds, as typed. */
  timeout?: string;
  /** `--quiet`: nothing on stderr but errors. */
  quiet?: boolean;
  /** `--jq EXPR`: JSON output filtered by jq (src/output/jq.ts). */
  jq?: string;
}

/** A wait that ends early, without failing, when `signal` aborts; its timer never outlives it. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
