/**
 * A request is in the log the moment its reply has been sent, for whoever reads it: the server
 * writes each entry as its reply is sent, but commits them in batches (./writer.ts), and a reader
 * on another connection sees only what is committed. So a reader has the batch committed first
 * (flush-on-read): in the server's process directly (the handle of `startSandbox()`,
 * `GET /__sandbox/requests`, the dashboard), from another process by asking the running server
 * (`POST /__sandbox/requests/flush`: `loanctl sandbox logs` and `sandbox verify`). Between reads,
 * the batching stands as it was: only a read costs a commit.
 */
import { request } from 'node:http';
import type { DatabaseSync } from 'node:sqlite';
import { readControlKey } from '../control/control-key.js';
import { readRunning } from '../control/run-file.js';
import { openLogForReading } from './store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Commits the request log's open batch (../observe.ts), so any reader sees every reply sent. */
    flushRequestLog(): void;
  }
}

export const FLUSH_PATH = '/__sandbox/requests/flush';

/** Runs `read` on the data dir's log after `flush`; undefined when nothing was ever logged there. */
export function readFreshLog<T>(flush: () => void, dataDir: string, read: (db: DatabaseSync) => T): T | undefined {
  flush();
  const db = openLogForReading(dataDir);
  if (!db) return undefined;
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** How long another process waits for the running server to commit its batch (ms). */
const FLUSH_TIMEOUT_MS = 5_000;

/**
 * Asks the sandbox running on `dataDir`, if one is, to commit its log's batch. When none runs,
 * everything is committed already (a stopping server commits its batch). A server that does not
 * answer leaves the reader with what is committed, at most the batch's 200 ms behind.
 */
export async function flushRunningSandbox(dataDir: string): Promise<void> {
  const url = readRunning(dataDir)?.url;
  const key = readControlKey(dataDir);
  if (!url || !key) return;
  await new Promise<void>((resolve) => {
    const sent = request(new URL(FLUSH_PATH, url), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      timeout: FLUSH_TIMEOUT_MS,
    });
    sent.on('response', (reply) => {
      reply.resume();
      reply.on('end', resolve);
      reply.on('error', () => resolve());
    });
    sent.on('timeout', () => sent.destroy());
    sent.on('error', () => resolve());
    sent.end();
  });
}
