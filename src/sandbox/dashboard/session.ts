/**
 * Dashboard sessions, kept in the sandbox process's memory: a session lives as long as the
 * sandbox that issued it (a restarted sandbox asks to sign in again), and nothing about a sign-in
 * reaches the SQLite file that `sandbox reset` and the API's tables own. A session holds the
 * SHA-256 digest of the key (as the api_keys table does), never the key itself, and the caller is
 * looked up from it on every request, as the API looks up every request's key.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export interface Session {
  id: string;
  /** The token every form of this session carries (cross-site request forgery). */
  csrf: string;
  /** The signed-in key's digest; absent before sign-in. */
  keyHash?: string;
  expiresAt: number;
}

/** A session unused this long is forgotten. */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
/** Most sessions kept at once: the oldest goes first (bounds the memory a flood of visits can take). */
const MAX_SESSIONS = 10_000;

function token(): string {
  return randomBytes(32).toString('base64url');
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** A new session, signed in when `keyHash` is given. */
  create(keyHash?: string): Session {
    if (this.sessions.size >= MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
    const session: Session = { id: token(), csrf: token(), keyHash, expiresAt: this.clock() + SESSION_IDLE_MS };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id (its idle time restarts), else undefined. */
  find(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (session.expiresAt <= this.clock()) {
      this.sessions.delete(id);
      return undefined;
    }
    session.expiresAt = this.clock() + SESSION_IDLE_MS;
    // Re-inserted so the map's order stays least recently used first.
    this.sessions.delete(id);
    this.sessions.set(id, session);
    return session;
  }

  /** Signing in replaces the anonymous session with a new id (no session fixation). */
  signIn(previous: Session | undefined, keyHash: string): Session {
    if (previous) this.sessions.delete(previous.id);
    return this.create(keyHash);
  }

  destroy(session: Session): void {
    this.sessions.delete(session.id);
  }
}

/** True when the form's token is the session's (compared in constant time). */
export function csrfMatches(session: Session | undefined, given: unknown): boolean {
  if (!session || typeof given !== 'string') return false;
  const expected = Buffer.from(session.csrf);
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
