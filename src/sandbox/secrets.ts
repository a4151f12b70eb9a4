/**
 * Random identifiers and the one-way hashes the sandbox keeps instead of secrets: API keys are
 * stored as SHA-256 digests (they are long and random, so a fast hash is enough), passwords as
 * salted scrypt hashes with their parameters.
 */
import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn uniformly from `alphabet` (rejection sampling: no modulo bias). */
export function randomString(length: number, alphabet: string = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
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
 * Deliberately cheap (N=16 where a production service would use 2^14 or more): the sandbox is a
 * local test server holding throwaway passwords, and a bulk run creates thousands of users, which
 * at N=16384 spent ~66 ms of CPU each (issue #5's bulk benchmark). Salted and one-way still; the
 * parameters are stored with each hash, so hashes written with other parameters keep verifying.
 */
const SCRYPT = { N: 16, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password, salt, keyLength, { N, r, p, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (salt and hash in base64): the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(
    password,
    Buffer.from(salt, 'base64'),
    Number(n),
    Number(r),
    Number(p),
    expected.length,
  );
  return timingSafeEqual(actual, expected);
}
