/**
 * `--quiet`: hints, notices, progress and warnings go to stderr, so a quiet run's stderr is a sink.
 * Errors are not dropped: main.ts writes them to the stderr it held before the options were read.
 * Prompts draw on the terminal through their own stream (deps.prompter), never through this one.
 */
import { Writable } from 'node:stream';
import type { Io, OutputStream } from './basics.js';

/** `io` with a stderr that swallows everything; stdin and stdout are still reached only when used. */
export function quietIo(io: Io): Io {
  const sink: OutputStream = new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
  return {
    get stdin() {
      return io.stdin;
    },
    get stdout() {
      return io.stdout;
    },
    stderr: sink,
  };
}
