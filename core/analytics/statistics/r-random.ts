/**
 * A seeded random generator that reproduces R's default: Mersenne-Twister with R's seeding (set.seed) and
 * sample() by rejection sampling (R >= 3.6, sample.kind = "Rejection"). We use it for PoPLR's random permutations
 * so that, with seed 1, our permutation set is the one visualFields draws (reference files, series over 7 visits).
 * Written from the published algorithms (Matsumoto & Nishimura 1998; R's RNG.c documentation), not ported code.
 */
const N = 624,
  M = 397;
const MATRIX_A = 0x9908b0df,
  UPPER = 0x80000000,
  LOWER = 0x7fffffff;

export class RRandom {
  private readonly mt = new Uint32Array(N);
  private mti = N;

  /** Like R's set.seed(seed): 50 scrambling steps of the LCG 69069 s + 1, then one more per state word. */
  constructor(seed: number) {
    let s = seed >>> 0;
    for (let j = 0; j < 50; j++) s = (Math.imul(69069, s) + 1) >>> 0;
    // R's seed vector has 625 words: the first is the position (set to 624), then the 624 state words.
    s = (Math.imul(69069, s) + 1) >>> 0;
    for (let j = 0; j < N; j++) {
      s = (Math.imul(69069, s) + 1) >>> 0;
      this.mt[j] = s;
    }
    this.mti = N;
  }

  private nextInt32(): number {
    const mt = this.mt;
    if (this.mti >= N) {
      let kk = 0;
      for (; kk < N - M; kk++) {
        const y = (mt[kk]! & UPPER) | (mt[kk + 1]! & LOWER);
        mt[kk] = mt[kk + M]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      for (; kk < N - 1; kk++) {
        const y = (mt[kk]! & UPPER) | (mt[kk + 1]! & LOWER);
        mt[kk] = mt[kk + (M - N)]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      const y = (mt[N - 1]! & UPPER) | (mt[0]! & LOWER);
      mt[N - 1] = mt[M - 1]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      this.mti = 0;
    }
    let y = mt[this.mti++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** Uniform on (0, 1), like R's unif_rand(). */
  unif(): number {
    const v = this.nextInt32() * 2.3283064365386963e-10;
    if (v <= 0) return 0.5 * 2.328306437080797e-10;
    if (1 - v <= 0) return 1 - 0.5 * 2.328306437080797e-10;
    return v;
  }

  /** `bits` random bits built from 16-bit chunks of unif(), as R's rbits(). */
  private bits(bits: number): number {
    // Exact in doubles for bits <= 36 (three 16-bit chunks < 2^48); PoPLR needs a handful of bits.
    let v = 0;
    for (let n = 0; n <= bits; n += 16) v = 65536 * v + Math.floor(this.unif() * 65536);
    return v % 2 ** bits;
  }

  /** A uniform integer in [0, n), like R_unif_index (rejection sampling below the next power of two). */
  index(n: number): number {
    if (n <= 0) return 0;
    if (n > 2 ** 36) throw new RangeError("index range too large");
    const bits = Math.ceil(Math.log2(n));
    let v: number;
    do v = this.bits(bits);
    while (n <= v);
    return v;
  }

  /** A random permutation of 0..n-1, drawn like R's sample(n) (1-based there). */
  permutation(n: number): number[] {
    const x = [...Array(n).keys()];
    const out: number[] = [];
    let m = n;
    for (let i = 0; i < n; i++) {
      const j = this.index(m);
      out.push(x[j]!);
      x[j] = x[--m]!;
    }
    return out;
  }
}
