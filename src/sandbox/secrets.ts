/**
 * Random identifiers and the one-way hashes the sandbox keeps instead of secrets: API keys are
 * stored as SHA-256 digests (they are long and random, so a fast hash is enough), passwords as
 * salted scrypt hashes with their parameters.
 */
import { hash, randomInt, scryptSync, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` characters drawn uniformly from `alphabet`. `randomInt` is unbiased and draws from
 * Node's own cache of random bytes: about 1 µs for a reference, where a `randomBytes` call costs
 * 5–6 µs on a small VM (every write makes a reference; bench/README).
 */
export function randomString(length: number, alphabet: string = BASE62): string {
  let out = '';
  while (out.length < length) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export const API_KEY_PREFIX = 'sk_sandbox_';

/** A new API key: `sk_sandbox_` and 32 base62 characters (about 190 bits). */
export function newApiKey(): string {
  return `${API_KEY_PREFIX}${randomString(32)}`;
}

export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/**
 * How long a generated reference is, per kind. The real service's references are letters and
 * digits, mixed case: `LNNPVUjVigzfA` (13, a user), `5dnpDwwn3dDwD14i` (16, a loan request).
 * Documents have no published example; they take the loan request's shape.
 */
export const REFERENCE_LENGTH = { user: 13, loanRequest: 16, document: 16 } as const;

/** A generated reference of the real service's shape, e.g. `5dnpDwwn3dDwD14i` for a loan request. */
export function newReference(kind: keyof typeof REFERENCE_LENGTH): string {
  return randomString(REFERENCE_LENGTH[kind]);
}

/** An opaque id for a tokenized bank account. */
export function newLinkerId(): string {
  return `lnk_${randomString(24)}`;
}

/**
 * Deliberately cheap (N=16 and r=1, where a production service would use N=2^14 or more and r=8):
 * the sandbox is a local test server holding throwaway passwords, and a bulk run creates thousands
 * of users, which at N=16384 spent ~66 ms of CPU each (issue #5's bulk benchmark); at r=8 a hash
 * still cost ~40 µs of a POST's ~250, at r=1 ~9 µs, so it is made in the request's own turn, with
 * no thread-pool round trip (bench/README). Salted and one-way still; the parameters are stored
 * with each hash, so hashes written with other parameters keep verifying.
 */
const SCRYPT = { N: 16, r: 1, p: 1, keyLength: 32, saltLength: 16 } as const;

/** Room for the parameters of any stored hash (N=16384, r=8 needs 16 MiB). */
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

/**
 * `scrypt$N$r$p$salt$hash` (salt and hash in base64): the parameters travel with the hash. The salt
 * is base62 text: a salt need only be unique, and `randomString` is cheaper than `randomBytes`.
 */
export function hashPassword(password: string): string {
  const salt = Buffer.from(randomString(SCRYPT.saltLength));
  const { N, r, p, keyLength } = SCRYPT;
  const key = scryptSync(password, salt, keyLength, { N, r, p, maxmem: SCRYPT_MAXMEM });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT_MAXMEM };
  const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length, options);
  return timingSafeEqual(actual, expected);
}
