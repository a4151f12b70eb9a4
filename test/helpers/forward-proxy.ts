/**
 * A real forward proxy on 127.0.0.1, port 0, built on `node:http` as corporate proxies behave:
 * `CONNECT host:port` opens a TCP tunnel (for https), and a request with an absolute URI is
 * forwarded (for plain http). It records what it saw, including the Proxy-Authorization header,
 * and can refuse every request with a status (403, 407). `route` sends a host name the test made
 * up (api.example.test) to a local server, as the proxy's own DNS would.
 *
 * Also: a tiny https server with a given certificate that answers the API's envelope and records
 * the paths asked for.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { KeyPair } from './tls-certs.js';

interface ProxySaw {
  method: string;
  /** `host:port` of a CONNECT, the absolute URI of a forwarded request. */
  target: string;
  proxyAuthorization: string | undefined;
}

export interface ForwardProxy {
  url: string;
  port: number;
  seen: ProxySaw[];
  /** Sends `hostPort` (`api.example.test:443`) to 127.0.0.1:`port`. */
  route(hostPort: string, port: number): void;
  /** Answers every request with this status from now on (undefined: forward again). */
  refuse(status: number | undefined): void;
  close(): Promise<void>;
}

export async function forwardProxy(): Promise<ForwardProxy> {
  const seen: ProxySaw[] = [];
  const routes = new Map<string, number>();
  const sockets = new Set<Socket>();
  let refusing: number | undefined;
  const where = (hostPort: string) => {
    const local = routes.get(hostPort);
    if (local) return { host: '127.0.0.1', port: local };
    const at = hostPort.lastIndexOf(':');
    return { host: hostPort.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(hostPort.slice(at + 1)) };
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({
      method: req.method ?? '',
      target: req.url ?? '',
      proxyAuthorization: req.headers['proxy-authorization'],
    });
    if (refusing) {
      res.writeHead(refusing, { 'content-type': 'text/html' }).end('<html>Access denied by proxy</html>');
      return;
    }
    const target = new URL(req.url ?? '');
    const { host, port } = where(`${target.hostname}:${target.port || 80}`);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      { host, port, path: `${target.pathname}${target.search}`, method: req.method, headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => {});
    seen.push({ method: 'CONNECT', target: req.url ?? '', proxyAuthorization: req.headers['proxy-authorization'] });
    if (refusing) {
      client.end(`HTTP/1.1 ${refusing} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    const upstream = connect(where(req.url ?? ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    route: (hostPort, local) => routes.set(hostPort, local),
    refuse(status) {
      refusing = status;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

export interface TlsApi {
  port: number;
  /** Paths (and queries) asked for, in order. */
  paths: string[];
  /** Answers after this long from now on. */
  delay(ms: number): void;
  close(): Promise<void>;
}

/** An https server on 127.0.0.1 with `pair` that answers every request with a success envelope. */
export async function tlsApi(pair: KeyPair): Promise<TlsApi> {
  const paths: string[] = [];
  let delayMs = 0;
  const server = createHttpsServer(pair, (req, res) => {
    paths.push(req.url ?? '');
    const body = JSON.stringify({ status: 'success', message: 'ok', data: { via: 'tls' } });
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    }, delayMs);
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    paths,
    delay(ms) {
      delayMs = ms;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
