/** Money in whole kobo (integers), so every amount and total is exact; see ./index.ts "Money". */

/** Largest amount (in kobo) that is still an exact integer in a double. */
export const MAX_KOBO = Number.MAX_SAFE_INTEGER;

export function toKobo(amount: number): number {
  return roundKobo(amount * 100);
}

export function fromKobo(kobo: number): number {
  return kobo / 100;
}

/** Half up to a whole kobo, after dropping binary floating-point noise (0.1 × 3 = 0.30000000000000004). */
export function roundKobo(kobo: number): number {
  return Math.round(Number(kobo.toPrecision(15)));
}
