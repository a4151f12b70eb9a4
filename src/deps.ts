/**
 * The dependencies every command receives (design.md, "Injected dependencies"). Production wires
 * the real ones in `productionDeps`; tests pass their own. Anything heavy is reached lazily, so
 * `--help` and `--version` load nothing but commander.
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

export interface Deps {
  io: Io;
  env: Record<string, string | undefined>;
  /** The clock, so tests can pin dates. */
  now: () => Date;
}

export function productionDeps(): Deps {
  return {
    io: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
    env: process.env,
    now: () => new Date(),
  };
}
