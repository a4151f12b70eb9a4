/**
 * A scripted server (./scripted-server.ts) in front of a real sandbox: every request is forwarded
 * to the sandbox as it came and its reply passed back, and each is recorded as the contract
 * operation it is (method and path matched against the contract table), with its path
 * parameters, query and body. For the replies a real server does not give on demand: `hold(key)`
 * leaves an operation unanswered (a request still out when Ctrl-C comes), `answer` replies in the
 * sandbox's place (a refusal), `rewrite` changes what the sandbox replied (values the real service
 * may send that the sandbox never does).
 */
import { type IncomingHttpHeaders, request, type ServerResponse } from 'node:http';
import { ENDPOINTS, type EndpointKey } from '../../src/contract/endpoints.js';
import { json, type ScriptedServer, scriptedServer } from './scripted-server.js';

interface SentOperation {
  key: EndpointKey;
  params: Record<string, string>;
  /** The query as sent, product-id included. */
  query: Record<string, string>;
  body: unknown;
}

export interface SandboxFront {
  url: string;
  /** The operations that reached the sandbox (or were held), in order. */
  sent(): SentOperation[];
  /** From now on, `key` is received (and recorded) but never answered; resolves when it arrives. */
  hold(key: EndpointKey): Promise<void>;
  /** From now on, `key` is answered with this status and JSON body instead of reaching the sandbox. */
  answer(key: EndpointKey, status: number, body: unknown): void;
  /** From now on, the sandbox's JSON reply to `key` is passed through `change` first. */
  rewrite(key: EndpointKey, change: (reply: Record<string, unknown>) => unknown): void;
  /** From now on, requests wait at the front until `count` have arrived, then all go on: they were sent at once. */
  gather(count: number): void;
  close(): Promise<void>;
}

const ROUTES = ENDPOINTS.map((def) => ({
  key: def.key as EndpointKey,
  method: def.method,
  names: [...def.path.matchAll(/:([a-z_]+)/g)].map((match) => match[1] as string),
  pattern: new RegExp(`^${def.path.replace(/:[a-z_]+/g, '([^/]+)')}$`),
}));

/** The contract operation a request is, with its path parameters. */
function operationOf(method: string, url: string): SentOperation {
  const parsed = new URL(url, 'http://front');
  for (const route of ROUTES) {
    const match = route.method === method ? route.pattern.exec(parsed.pathname) : null;
    if (!match) continue;
    const params = Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]));
    return { key: route.key, params, query: Object.fromEntries(parsed.searchParams), body: undefined };
  }
  throw new Error(`no operation of the contract is ${method} ${url}`);
}

export async function sandboxFront(sandboxUrl: string): Promise<SandboxFront> {
  const server: ScriptedServer = await scriptedServer();
  let held: { key: EndpointKey; arrived: () => void } | undefined;
  const answers = new Map<EndpointKey, { status: number; body: unknown }>();
  const rewrites = new Map<EndpointKey, (reply: Record<string, unknown>) => unknown>();
  let gathering: { count: number; waiting: Array<() => void> } | undefined;
  server.script((req, res, n) => {
    const seen = server.requests[n];
    if (!seen) throw new Error('the scripted server lost a request');
    const { key } = operationOf(seen.method, seen.url);
    if (held?.key === key) {
      held.arrived();
      return; // never answered
    }
    const answer = answers.get(key);
    if (answer) return json(res, answer.status, answer.body);
    const forward = () => pass(req.headers, seen.method, seen.url, seen.body, rewrites.get(key), res);
    if (!gathering) return forward();
    gathering.waiting.push(forward);
    if (gathering.waiting.length >= gathering.count) for (const go of gathering.waiting.splice(0)) go();
  });
  /** Sends a request on to the sandbox, and its reply (changed by `change`) back. */
  function pass(
    headers: IncomingHttpHeaders,
    method: string,
    url: string,
    body: string,
    change: ((reply: Record<string, unknown>) => unknown) | undefined,
    res: ServerResponse,
  ): void {
    const upstream = request(`${sandboxUrl}${url}`, { method, headers }, (reply) => {
      if (!change) {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      reply.on('data', (chunk: Buffer) => chunks.push(chunk));
      reply.on('end', () => json(res, reply.statusCode ?? 502, change(JSON.parse(Buffer.concat(chunks).toString()))));
    });
    upstream.end(body);
  }
  return {
    url: server.url,
    sent: () =>
      server.requests.map((seen) => ({
        ...operationOf(seen.method, seen.url),
        body: seen.body === '' ? undefined : JSON.parse(seen.body),
      })),
    hold: (key) =>
      new Promise<void>((arrived) => {
        held = { key, arrived };
      }),
    answer: (key, status, body) => answers.set(key, { status, body }),
    rewrite: (key, change) => rewrites.set(key, change),
    gather: (count) => {
      gathering = { count, waiting: [] };
    },
    close: () => server.close(),
  };
}
