/**
 * Dashboard sessions, kept in the sandbox process's memory: a session lives as long as the
 * sandbox that issued it (a restarted sandbox asks to sign in again), and nothing about a sign-in
 * reaches the SQLite file that `sandbox reset` and the API's tables own. A session holds the
 * SHA-256 digest of the key (as the api_keys table does), never the key itself, and the caller is
 * looked up from it on every request, as the API looks up every request's key.
 *
 * Only a sign-in with a valid key makes a session. A visitor who has not signed in leaves nothing
 * in memory (any web page can make a browser open the sign-in page, thousands of times): the
 * sign-in form's token is computed from the visitor's own cookie instead (SignInTokens).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The cookie that carries the session (or, before sign-in, the visitor's sign-in token). */
export const COOKIE = 'loanctl_dashboard';

export interface Session {
  id: string;
  /** The token every form of this session carries (cross-site request forgery). */
  csrf: string;
  /** The signed-in key's digest. */
  keyHash: string;
  /** When it ends unless used again: SESSION_IDLE_MS after its last use, never after `endsAt`. */
  expiresAt: number;
  /** When it ends however much it is used (SESSION_LIFETIME_MS after sign-in). */
  endsAt: number;
}

/** A session unused this long is forgotten. */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
/** A session ends this long after its sign-in, used or not: a stolen cookie does not work forever. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;
/**
 * Most sessions one key keeps at once; its least recently used goes first. Per key, so that one
 * key's sign-ins can never end another's sessions, and memory stays bounded by the keys that exist.
 */
export const MAX_SESSIONS_PER_KEY = 100;

function token(): string {
  return randomBytes(32).toString('base64url');
}

export class SessionStore {
  /** In least recently used order (find re-inserts). */
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly clock: () => number = Date.now) {}

  /**
   * A new signed-in session for `keyHash`, with a new id (no session fixation); the session the
   * browser had before, if any, ends.
   */
  signIn(previous: Session | undefined, keyHash: string): Session {
    if (previous) this.sessions.delete(previous.id);
    this.makeRoomFor(keyHash);
    const endsAt = this.clock() + SESSION_LIFETIME_MS;
    const session: Session = { id: token(), csrf: token(), keyHash, expiresAt: this.idleEnd(endsAt), endsAt };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id (its idle time restarts), else undefined. */
  find(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (this.ended(session)) {
      this.sessions.delete(id);
      return undefined;
    }
    session.expiresAt = this.idleEnd(session.endsAt);
    // Re-inserted so the map's order stays least recently used first.
    this.sessions.delete(id);
    this.sessions.set(id, session);
    return session;
  }

  destroy(session: Session): void {
    this.sessions.delete(session.id);
  }

  /** How many sessions are kept. */
  get size(): number {
    return this.sessions.size;
  }

  /** When a session used now ends unless used again. */
  private idleEnd(endsAt: number): number {
    return Math.min(this.clock() + SESSION_IDLE_MS, endsAt);
  }

  private ended(session: Session): boolean {
    return session.expiresAt <= this.clock();
  }

  /** Forgets ended sessions, and this key's least recently used ones beyond its limit. */
  private makeRoomFor(keyHash: string): void {
    const ofKey: string[] = [];
    for (const [id, session] of this.sessions) {
      if (this.ended(session)) this.sessions.delete(id);
      else if (session.keyHash === keyHash) ofKey.push(id);
    }
    for (const id of ofKey.slice(0, Math.max(0, ofKey.length - MAX_SESSIONS_PER_KEY + 1))) this.sessions.delete(id);
  }
}

/**
 * The sign-in form's token, kept nowhere: an HMAC of the visitor's cookie value under a key this
 * process drew at start. A page elsewhere can neither read the cookie nor compute the token, so it
 * cannot sign a browser in to another organisation (login forgery); and a flood of visits to the
 * sign-in page costs no memory.
 */
export class SignInTokens {
  private readonly secret = randomBytes(32);

  /** The visitor's cookie value to keep (a new one when it has none). */
  nonceFor(cookie: string | undefined): string {
    return cookie !== undefined && /^[A-Za-z0-9_-]{43}$/.test(cookie) ? cookie : token();
  }

  tokenFor(nonce: string): string {
    return createHmac('sha256', this.secret).update(nonce).digest('base64url');
  }

  /** True when `given` is the token of the cookie's value (compared in constant time). */
  matches(cookie: string | undefined, given: unknown): boolean {
    return cookie !== undefined && sameText(this.tokenFor(cookie), given);
  }
}

/** True when the form's token is the session's (compared in constant time). */
export function csrfMatches(session: Session | undefined, given: unknown): boolean {
  return session !== undefined && sameText(session.csrf, given);
}

function sameText(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const wanted = Buffer.from(expected);
  const actual = Buffer.from(given);
  return wanted.length === actual.length && timingSafeEqual(wanted, actual);
}
