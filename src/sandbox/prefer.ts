/**
 * One-off scenarios: a request may ask for its own outcome with a `Prefer` header (RFC 7240, as
 * Prism's `Prefer: code=404`), for that request alone, where global faults (./faults/) are for
 * whole runs:
 *
 *   code=503        answer with this HTTP status (a bare body, as a gateway sends; see envelope)
 *   envelope=error  answer with the API's error envelope (HTTP 200 unless code says otherwise)
 *   latency=2s      wait this long first (alone: then the request is served as usual)
 *   drop            close the connection without a reply (after the latency, if one is given)
 *
 * The key is checked first: only a caller of an organisation gets its outcome, and the request log
 * records it under that organisation, with what was asked (../log/entry.ts). Preferences of other
 * names are ignored, as RFC 7240 asks; a known one with a value it cannot take is a 400.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { durationMs } from '../input/duration.js';
import { fail } from './envelope.js';
import { sendFault } from './faults/inject.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The API operation a route serves (its contract key): only those honour `Prefer`. */
    operation?: string;
  }
}

interface Preference {
  code?: number;
  envelope?: 'error';
  latencyMs?: number;
  drop?: true;
  /** What was applied, as the `Preference-Applied` header and the request log say it. */
  applied: string;
}

/** The longest latency a request may ask for: below the connection's idle limit (./limits.ts). */
export const MAX_PREFERRED_LATENCY_MS = 30_000;

const PREFERENCES = ['code', 'envelope', 'latency', 'drop'] as const;

/** The preference of a request's `Prefer` header(s), or undefined when it asks for none of these. */
function parsePrefer(header: string | string[] | undefined): Preference | undefined {
  if (header === undefined) return undefined;
  const preference: Omit<Preference, 'applied'> = {};
  const applied: string[] = [];
  for (const token of (Array.isArray(header) ? header.join(',') : header).split(/[,;]/)) {
    const [rawName = '', ...rest] = token.split('=');
    const name = rawName.trim().toLowerCase();
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (!(PREFERENCES as readonly string[]).includes(name)) continue;
    Object.assign(preference, preferenceOf(name as (typeof PREFERENCES)[number], value));
    applied.push(name === 'drop' ? 'drop' : `${name}=${value}`);
  }
  return applied.length === 0 ? undefined : { ...preference, applied: applied.join(', ') };
}

function preferenceOf(name: (typeof PREFERENCES)[number], value: string): Omit<Preference, 'applied'> {
  switch (name) {
    case 'code': {
      const code = /^[1-5]\d\d$/.test(value) ? Number(value) : Number.NaN;
      if (!(code >= 200 && code <= 599)) throw bad(`code=${value}: give an HTTP status from 200 to 599, e.g. code=503`);
      return { code };
    }
    case 'envelope':
      if (value.toLowerCase() !== 'error')
        throw bad(`envelope=${value}: the one envelope it can ask for is envelope=error`);
      return { envelope: 'error' };
    case 'latency': {
      const ms = durationMs(value);
      if (ms === undefined || ms > MAX_PREFERRED_LATENCY_MS) {
        throw bad(
          `latency=${value}: give a duration up to ${MAX_PREFERRED_LATENCY_MS / 1000}s, e.g. latency=2s or 500ms`,
        );
      }
      return { latencyMs: ms };
    }
    case 'drop':
      if (value !== '') throw bad(`drop=${value}: drop takes no value`);
      return { drop: true };
  }
}

function bad(what: string) {
  return fail(400, `Prefer header: ${what}`);
}

/**
 * Honours `Prefer` on the API's routes, before any global fault (a request's own wish comes
 * first). `orgOf` checks the key (throwing the 401 envelope) and gives the caller's organisation.
 */
export function installPreferences(app: FastifyInstance, orgOf: (request: FastifyRequest) => number): void {
  app.addHook('preHandler', (request, reply, done) => {
    if (request.routeOptions.config?.operation === undefined || request.headers.prefer === undefined) return done();
    let preference: Preference | undefined;
    try {
      request.orgId = orgOf(request);
      preference = parsePrefer(request.headers.prefer);
    } catch (error) {
      return done(error as Error);
    }
    if (!preference) return done();
    const { code, envelope, latencyMs, drop, applied } = preference;
    request.preferred = applied;
    reply.header('preference-applied', applied);
    const act = () => {
      if (drop) {
        request.dropped = true;
        request.raw.socket?.destroy();
      } else if (code !== undefined || envelope !== undefined) {
        sendFault(reply, { http: code ?? 200, envelope: envelope ?? null, message: null });
      } else done();
    };
    if (latencyMs) setTimeout(act, latencyMs);
    else act();
  });
}
