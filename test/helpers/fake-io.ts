import { PassThrough, Writable } from 'node:stream';
import type { InputStream, Io, OutputStream } from '../../src/basics.js';

export interface CapturedStream extends OutputStream {
  text(): string;
}

export function captured(isTTY = false): CapturedStream {
  let buffer = '';
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      buffer += chunk.toString();
      callback();
    },
  }) as Writable & { isTTY?: boolean; text(): string };
  stream.isTTY = isTTY;
  stream.text = () => buffer;
  return stream;
}

export interface FakeIo extends Io {
  stdout: CapturedStream;
  stderr: CapturedStream;
}

/** Captured stdout/stderr; stdin holds `input` (then ends) unless it is a TTY. */
export function fakeIo(options: { input?: string; tty?: boolean } = {}): FakeIo {
  const stdin = new PassThrough() as PassThrough & InputStream;
  stdin.isTTY = options.tty ?? false;
  if (!options.tty) stdin.end(options.input ?? '');
  return { stdin, stdout: captured(options.tty), stderr: captured(options.tty) };
}
