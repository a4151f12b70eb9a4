/** The one place the sandbox listens: data dir → demo credentials → app → listening server. */
import type { FastifyInstance } from 'fastify';
import { type DemoCredentials, ensureDemo } from './admin.js';
import { buildSandbox } from './app.js';
import { ensureControlKey } from './control/control-key.js';
import { dbPathFor } from './db.js';
import { guardHost, hostNames } from './hosts.js';

export interface ServerOptions {
  dataDir: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Names besides loopback and `host` that requests may give in Host (hosts.ts). */
  allowHosts?: readonly string[];
  now?: () => Date;
  onError?: (error: unknown) => void;
}

export interface RunningSandbox {
  /** Base URL a client uses, e.g. `http://127.0.0.1:4010`. */
  url: string;
  host: string;
  port: number;
  dataDir: string;
  /** The control plane's own key (control/control-key.ts): `GET /__sandbox/requests` takes it. */
  controlKey: string;
  /** The demo organisation's credentials; `created` when this start made them. */
  demo: DemoCredentials & { created: boolean };
  app: FastifyInstance;
  /** Stops accepting connections, finishes in-flight requests, closes the database. */
  close(): Promise<void>;
}

/** A host as it goes in a URL: wildcard addresses become loopback, IPv6 gets brackets. */
/**
 * Listens on `host:port` (0: a free port), answering only requests addressed to that host or to
 * `allowHosts` (./hosts.ts); the app is closed when it cannot listen. The sandbox and its proxy.
 */
export async function listenGuarded(
  app: FastifyInstance,
  host: string,
  wanted: number,
  allowHosts: readonly string[],
): Promise<{ url: string; port: number }> {
  let port = wanted;
  guardHost(app, hostNames(host, allowHosts), () => port);
  try {
    await app.listen({ host, port: wanted });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : wanted;
  return { url: `http://${urlHost(host)}:${port}`, port };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSandboxServer(options: ServerOptions): Promise<RunningSandbox> {
  const demo = ensureDemo(options.dataDir, options.now ? { now: options.now } : {});
  const app = await buildSandbox({
    dbPath: dbPathFor(options.dataDir),
    ...(options.now && { now: options.now }),
    ...(options.onError && { onError: options.onError }),
  });
  const { url, port } = await listenGuarded(app, options.host, options.port, options.allowHosts ?? []);
  return {
    url,
    host: options.host,
    port,
    dataDir: options.dataDir,
    demo,
    controlKey: ensureControlKey(options.dataDir),
    app,
    close: () => app.close(),
  };
}
