/**
 * Whether a fault with a probability fires on its n-th matching request. With a seed the answer
 * depends only on (seed, n), so the same seed gives the same sequence of hits and misses in every
 * run, after a restart too (n is kept in the database); without one it is Math.random().
 */
export function draw(seed: number | null, n: number): number {
  if (seed === null) return Math.random();
  // splitmix32 over the pair: a well-mixed 32-bit hash, so neighbouring n give unrelated draws.
  let state = (Math.imul(seed | 0, 0x9e3779b9) + Math.imul(n + 1, 0x85ebca6b)) | 0;
  state = Math.imul(state ^ (state >>> 16), 0x21f0aaad);
  state = Math.imul(state ^ (state >>> 15), 0x735a2d97);
  state ^= state >>> 15;
  return (state >>> 0) / 2 ** 32;
}
