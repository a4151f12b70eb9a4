/**
 * A reverse proxy on 127.0.0.1 that forwards every request to `target` unchanged and records its
 * method and path (with query): the HTTP boundary where a test counts what the CLI sent. A test may
 * also hold a request back, or answer it with a failure (`intercept`): one page of the user list,
 * which the sandbox's faults (matched by path, not query) cannot single out.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  url: string;
  /** `GET /api/v1/user?pages=3`, in the order received. */
  seen: string[];
  /**
   * Asked of each request (`GET /api/v1/user?pages=3`) before it is forwarded: a status answers
   * it with that status instead; a promise holds it until it settles.
   */
  intercept: ((line: string) => number | undefined | Promise<number | undefined>) | undefined;
  /** Forwards to another server from now on (the same base URL for the CLI, another server behind it). */
  retarget(url: string): void;
  close(): Promise<void>;
}

export async function countingProxy(initialTarget: string): Promise<CountingProxy> {
  const seen: string[] = [];
  let target = initialTarget;
  const server = createServer(async (incoming, outgoing) => {
    const line = `${incoming.method} ${incoming.url}`;
    seen.push(line);
    const status = await proxy.intercept?.(line);
    if (status !== undefined) {
      outgoing.writeHead(status, { 'content-type': 'text/plain' }).end(`${status} from the test's proxy\n`);
      return;
    }
    const forwarded = httpRequest(
      new URL(incoming.url ?? '/', target),
      { method: incoming.method, headers: incoming.headers },
      (reply) => {
        outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: CountingProxy = {
    url: `http://127.0.0.1:${port}`,
    seen,
    intercept: undefined,
    retarget: (url) => {
      target = url;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
