/**
 * Backpressure on stdout: after a write that filled the buffer (write() returned false, or
 * `writableNeedDrain`), wait for `drain` before writing more, so a slow reader slows loanctl down
 * instead of loanctl holding everything in memory. Used by bulk results and `--all` lists.
 */
import { once } from 'node:events';
import type { OutputStream } from '../basics.js';

/** Resolves when a stream's buffer has drained — or when it closed or failed (nothing more to wait for). */
export async function drained(stream: OutputStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return;
  const controller = new AbortController();
  try {
    await Promise.race([
      once(stream, 'drain', { signal: controller.signal }),
      once(stream, 'close', { signal: controller.signal }),
      once(stream, 'error', { signal: controller.signal }).catch(() => {}),
    ]);
  } catch {
    // `once` rejects on its own stream's error: the stream's error handler deals with it.
  } finally {
    controller.abort();
  }
}
