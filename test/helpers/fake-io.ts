import { PassThrough, Writable } from 'node:stream';
import type { InputStream, Io, OutputStream } from '../../src/basics.js';

export interface CapturedStream extends OutputStream {
  text(): string;
  /** Everything written, as bytes (a spreadsheet is not text). */
  bytes(): Buffer;
}

export function captured(isTTY = false): CapturedStream {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk, encoding, callback) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), encoding));
      callback();
    },
  }) as Writable & { isTTY?: boolean; text(): string; bytes(): Buffer };
  stream.isTTY = isTTY;
  stream.bytes = () => Buffer.concat(chunks);
  stream.text = () => stream.bytes().toString();
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
