/** The demo's streams: the user's stdout and stderr behind a gate, a step's JSON captured, an empty stdin. */
import { Readable, Writable } from 'node:stream';
import type { OutputStream } from '../../basics.js';
import type { Deps } from '../../deps.js';

export interface Gate extends OutputStream {
  /** From now on, drop every write (a step still running after Ctrl-C prints nothing). */
  close(): void;
}

/** Passes writes through to `target` (same TTY-ness and width) until closed; drops what `skip` says. */
export function gate(target: OutputStream, skip?: (text: string) => boolean): Gate {
  let open = true;
  const stream = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, callback) {
      if (open && !skip?.(String(chunk))) target.write(chunk);
      callback();
    },
  }) as Writable & Gate;
  stream.isTTY = target.isTTY;
  Object.defineProperty(stream, 'columns', { get: () => target.columns });
  stream.close = () => {
    open = false;
  };
  return stream;
}

/** Collects one step's JSON output, then hands it over parsed. */
export function captured(): OutputStream & { take(): unknown } {
  let text = '';
  const stream = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, callback) {
      text += String(chunk);
      callback();
    },
  }) as Writable & { isTTY?: boolean; take(): unknown };
  stream.isTTY = false;
  stream.take = () => {
    const taken = text.trim();
    text = '';
    return taken === '' ? null : JSON.parse(taken);
  };
  return stream;
}

/** Nothing for the verbs to read: the demo never prompts and never reads the user's stdin. */
export function emptyStdin(): Deps['io']['stdin'] {
  const stream = Readable.from([]) as Readable & { isTTY?: boolean };
  stream.isTTY = false;
  return stream;
}
