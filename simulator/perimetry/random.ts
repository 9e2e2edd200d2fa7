// A small seeded PRNG so every simulated patient and test is reproducible from its seed.
// sfc32 (Chris Doty-Humphrey's Small Fast Counting generator, public domain) seeded through splitmix32.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal deviate. */
  normal(): number;
  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** Integer in [0, n). */
  int(n: number): number;
  /** A new independent generator derived from this one (for sub-streams that must not shift each other). */
  fork(): Rng;
}

const splitmix32 = (seed: number) => () => {
  seed = (seed + 0x9e3779b9) | 0;
  let z = seed;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
};

/** A generator from a 32-bit integer seed (or a string, hashed). */
export const createRng = (seed: number | string): Rng => {
  const s0 = typeof seed === "string" ? hashString(seed) : seed >>> 0;
  const sm = splitmix32(s0);
  let a = sm(),
    b = sm(),
    c = sm(),
    d = sm();
  const u32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  let spare: number | null = null;
  const rng: Rng = {
    next: () => u32() / 4294967296,
    normal: () => {
      if (spare !== null) {
        const s = spare;
        spare = null;
        return s;
      }
      // Box-Muller; 1 - u keeps the logarithm finite.
      const u = 1 - rng.next();
      const v = rng.next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    uniform: (lo, hi) => lo + (hi - lo) * rng.next(),
    chance: (p) => rng.next() < p,
    int: (n) => Math.floor(rng.next() * n),
    fork: () => createRng(u32()),
  };
  return rng;
};

/** FNV-1a 32-bit. */
export const hashString = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
};

/** Standard normal cumulative distribution (Abramowitz & Stegun 7.1.26 via erf, error < 1.5e-7). */
export const normalCdf = (z: number): number => {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
};
