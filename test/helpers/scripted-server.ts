/**
 * A tiny real `node:http` server on 127.0.0.1, port 0, that a test scripts: it records every
 * request that reaches it (method, path and query, headers, body) and counts the TCP connections
 * made to it, and a script answers each request (status, headers, body, a delay, a dropped socket).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface SeenRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  authorization: string | undefined;
  body: string;
}

/** Answers the n-th request (0-based) since the script was set. */
export type Script = (req: IncomingMessage, res: ServerResponse, n: number) => void;

export interface ScriptedServer {
  url: string;
  port: number;
  /** The requests that reached the server, whole (body read), in order. */
  requests: SeenRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Connections still open. */
  openConnections(): number;
  /** Replaces the script (and forgets the requests seen so far). */
  script(script: Script): void;
  close(): Promise<void>;
}

export async function scriptedServer(): Promise<ScriptedServer> {
  let current: Script = (_req, res) => res.end();
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const n = requests.length;
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString(),
      });
      current(req, res, n);
    });
  });
  server.on('connection', (socket: Socket) => {
    accepted++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => accepted,
    openConnections: () => sockets.size,
    script(script) {
      current = script;
      requests.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** A JSON reply with its content-length; a string body is sent as it is. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Promises more body than it sends, sends `part`, then destroys the socket: a reply cut off mid-body. */
export function cutOff(res: ServerResponse, part: string): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(part) + 400) });
  res.write(part, () => res.socket?.destroy());
}
