/**
 * Random identifiers and the one-way hash the sandbox keeps instead of an API key: a SHA-256
 * digest (keys are long and random, so a fast hash is enough). Borrowers' passwords are not kept
 * in any form: the sandbox never checks one, so a leaked data dir leaks none (migration 6 blanks
 * what an older file kept).
 */
import { hash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` characters drawn uniformly from `alphabet`. `randomInt` is unbiased and draws from
 * Node's own cache of random bytes, where a `randomBytes` call for each reference costs
 * several times as much (every write makes a reference).
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
