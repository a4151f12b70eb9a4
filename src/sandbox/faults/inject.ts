/**
 * The server's side of faults: before a request is handled, the first fault (in the order added)
 * whose method and path glob match it decides. It fires with its probability (seeded: the same
 * sequence every run, chance.ts) until it has fired `times` times; a fired fault waits its latency,
 * then answers with its status, or, with no status, lets the request be served as usual.
 *
 * The faults are read from the database again only when another connection has changed it
 * (`PRAGMA data_version`), so `loanctl sandbox faults add` in another process takes effect on the
 * next request. An API read asks inside its own read transaction (../observe.ts `serveRead`), so
 * the version is read with the snapshot the request is served from.
 */
import { STATUS_CODES } from 'node:http';
import type { StatementSync } from 'node:sqlite';
import type { FastifyReply } from 'fastify';
import { isBusy } from '../busy.js';
import type { SandboxDb } from '../db.js';
import { envelope } from '../envelope.js';
import { globMatcher } from '../glob.js';
import { draw } from './chance.js';
import { defaultMessage } from './presets.js';
import { type FaultRow, FaultsStore } from './store.js';

interface LiveFault extends FaultRow {
  matches: (path: string) => boolean;
}

/** A fault that matched a request, and whether it fires on it. */
export interface Matched {
  fault: FaultRow;
  fires: boolean;
}

export class FaultInjector {
  private faults: LiveFault[] = [];
  private version = -1;
  private readonly dataVersion: StatementSync;
  private readonly store: FaultsStore;

  constructor(private readonly db: SandboxDb) {
    this.dataVersion = db.sqlite.prepare('PRAGMA data_version');
    this.store = new FaultsStore(db.sqlite);
  }

  /** The fault that answers this request, if one fires; counts the request for the fault that matched. */
  pick(method: string, path: string): FaultRow | undefined {
    const matched = this.match(method, path);
    if (matched) this.count(matched);
    return matched?.fires ? matched.fault : undefined;
  }

  /**
   * The first fault that matches the request, and whether it fires, counted in memory only (`count`
   * writes it). Called inside a read transaction, it reads the faults' version with that
   * transaction's snapshot, at no cost of a transaction of its own.
   */
  match(method: string, path: string): Matched | undefined {
    this.refresh();
    for (const fault of this.faults) {
      if ((fault.method !== null && fault.method !== method) || !fault.matches(path)) continue;
      if (fault.times !== null && fault.fired >= fault.times) continue;
      const fires = draw(fault.seed, fault.matched) < fault.probability;
      fault.matched++;
      if (fires) fault.fired++;
      return { fault, fires };
    }
    return undefined;
  }

  /** Writes a match's count (a write transaction of its own: never inside a read). */
  count({ fault, fires }: Matched): void {
    try {
      this.db.transaction(() => this.store.counted(fault.id, fires));
    } catch (error) {
      // Another process holds the write lock: this server's own count carries on in memory.
      if (!isBusy(error)) throw error;
    }
  }

  /**
   * The faults read again when another connection has committed since they were last read; a
   * commit between the two statements is seen by the next request.
   */
  private refresh(): void {
    const { data_version: version } = this.dataVersion.get() as { data_version: number };
    if (version === this.version) return;
    this.version = version;
    this.faults = this.store.list().map((fault) => ({ ...fault, matches: globMatcher(fault.path) }));
  }
}

/** The fault's reply (or a Prefer header's, ../prefer.ts): the API's error envelope, or a bare text body as a gateway sends. */
export function sendFault(reply: FastifyReply, fault: Pick<FaultRow, 'envelope' | 'message'> & { http: number }): void {
  reply.code(fault.http);
  if (fault.envelope === 'error') {
    const message = fault.message ?? defaultMessage(fault.http);
    reply.type('application/json; charset=utf-8').send(JSON.stringify(envelope({ status: 'error', message })));
  } else {
    reply.type('text/plain; charset=utf-8').send(`${fault.http} ${STATUS_CODES[fault.http] ?? ''}\n`);
  }
}
