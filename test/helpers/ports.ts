import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A loopback port that nothing listens on, for "connection refused": bind a free one, then close
 * it. (Another process could take it in between; on a test machine that is rare enough.)
 */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * A free loopback port below the kernel's ephemeral range, for a server that is restarted on the
 * same port while clients keep connecting. Inside that range a client's connect to the port while
 * nothing listens may be given that very port as its own and connect to itself (TCP's
 * simultaneous open): it reads its own request as the reply, and holds the port, so the restart
 * fails with EADDRINUSE. Below the range no outgoing connection is given it.
 */
export async function portBelowEphemeralRange(): Promise<number> {
  let low = 32768;
  try {
    low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    // not Linux: its usual range starts at 49152, above the default taken here
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * Math.max(1, low - 20_000));
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return port;
    }
  }
  throw new Error('no free port below the ephemeral range');
}
