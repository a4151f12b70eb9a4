/**
 * How far a tunnel through a proxy has come, read on the socket to the proxy that Node's own
 * proxy support opens (./transport.ts records it): still waiting for the proxy's answer to
 * CONNECT, or shaking hands with the server through the tunnel.
 */
import type { Socket } from 'node:net';
import type { Phase } from './bounds.js';

/** How many bytes a socket to the proxy had written when the proxy first answered: its CONNECT. */
const connectBytes = new WeakMap<Socket, number>();

/** Watches a new socket to the proxy, for tunnelPhase. */
export function watchTunnel(socket: Socket): void {
  // The proxy's first bytes come after the whole CONNECT was written: what was written by then.
  socket.once('data', () => connectBytes.set(socket, socket.bytesWritten));
  // Node's own proxy support adds a 'readable' listener for each piece of the proxy's answer to
  // CONNECT it has not read whole: a proxy that trickles its answer drew a
  // MaxListenersExceededWarning on stderr. The connect timeout bounds how many it adds (that
  // timeout then says the proxy did not answer): no warning for them.
  socket.setMaxListeners(0);
}

/**
 * Where the opening of a tunnel is: the TLS handshake has begun once the client wrote more than
 * its CONNECT (its hello, through the tunnel); before, the proxy has not answered — whatever
 * bytes it sent, an answer trickled and never finished is no tunnel.
 */
export function tunnelPhase(toProxy: Socket): Phase {
  if (toProxy.connecting) return 'connect';
  const connect = connectBytes.get(toProxy);
  return connect !== undefined && toProxy.bytesWritten > connect ? 'tls' : 'proxy';
}
