/**
 * Which names a listening sandbox answers to. A web page can point a name of its own at
 * 127.0.0.1 (DNS rebinding) and then read the sandbox as if it were its own site; the browser
 * still sends that name in `Host`, so a request whose Host is not an address of this sandbox is
 * refused, before anything else looks at it. Loopback names always pass; `--allow-host NAME` adds
 * more (a name the sandbox is reached by on a network).
 */
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { envelope } from './envelope.js';

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];
const WILDCARDS = new Set(['', '0.0.0.0', '::']);

/** A name `--allow-host` takes: a DNS name or an IP address, without port or scheme. */
export function isHostName(name: string): boolean {
  return (
    isIP(unbracket(name)) !== 0 ||
    /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(name)
  );
}

/** True when `host` is a loopback address or name (serving it reaches this machine only). */
export function isLoopback(host: string): boolean {
  const name = unbracket(host).toLowerCase();
  return LOOPBACK.includes(name) || /^127\.\d+\.\d+\.\d+$/.test(name);
}

function unbracket(name: string): string {
  return name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
}

/**
 * The names a request may give in Host: loopback, the address listened on (for a wildcard, every
 * address of this machine's interfaces) and the allowed names; lower case, without brackets.
 */
export function hostNames(listenHost: string, allowed: readonly string[]): Set<string> {
  const names = [...LOOPBACK, ...allowed];
  if (WILDCARDS.has(listenHost)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.push(address.address.split('%')[0] as string);
    }
  } else names.push(listenHost);
  return new Set(names.map((name) => unbracket(name).toLowerCase()));
}

/** The name and port of a Host header (`[::1]:4010` → `::1`, 4010), or undefined when malformed. */
function parseHost(header: string): { name: string; port: number | undefined } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!match) return undefined;
  return {
    name: unbracket(match[1] as string).toLowerCase(),
    port: match[2] === undefined ? undefined : Number(match[2]),
  };
}

/**
 * Refuses, with a 421 envelope, every request whose Host is not one of `names` on the port served
 * (a Host without a port means 80). `port` is read per request: it is known only once listening.
 */
export function guardHost(app: FastifyInstance, names: Set<string>, port: () => number): void {
  app.addHook('onRequest', (request, reply, done) => {
    // Cut short: the reply quotes it.
    const given = (request.headers.host ?? '').slice(0, 100);
    const host = parseHost(given);
    if (host && names.has(host.name) && (host.port ?? 80) === port()) return done();
    const name = host?.name ?? given;
    reply
      .code(421)
      .type('application/json; charset=utf-8')
      .send(
        envelope({
          status: 'error',
          message: `This sandbox does not answer to the host "${given}": use its own address, or start it with --allow-host ${isHostName(name) ? name : 'NAME'}`,
        }),
      );
  });
}
