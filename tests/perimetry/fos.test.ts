import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { HENSON, hensonSigma, probabilitySeen } from "../../simulator/perimetry/fos.ts";
import { normalCdf } from "../../simulator/perimetry/random.ts";

describe("frequency of seeing (analytics.md, Simulated observer)", () => {
  it("'sigma = min(6, exp(A t + B))' with Henson's combined A = -0.081, B = 3.27", () => {
    expect(hensonSigma(30)).toBeCloseTo(Math.exp(-0.081 * 30 + 3.27), 10);
    expect(hensonSigma(0)).toBe(6);
    expect(hensonSigma(30, HENSON.normal)).toBeCloseTo(Math.exp(-0.066 * 30 + 2.81), 10);
    expect(hensonSigma(30, HENSON.glaucoma)).toBeCloseTo(Math.exp(-0.098 * 30 + 3.62), 10);
  });

  it("'P(seen | x, t) = fpr + (1 - fpr - fnr) (1 - Phi((x - t)/sigma))': half way at threshold, fpr and 1 - fnr at the extremes", () => {
    expect(probabilitySeen(25, 25, 0.03, 0.01)).toBeCloseTo(0.03 + 0.96 * 0.5, 6);
    expect(probabilitySeen(60, 25, 0.03, 0.01)).toBeCloseTo(0.03, 3);
    expect(probabilitySeen(-40, 25, 0.03, 0.01)).toBeCloseTo(0.99, 3);
  });

  it("brighter stimuli (fewer dB) are seen at least as often", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 40, noNaN: true }),
        fc.double({ min: 0, max: 40, noNaN: true }),
        fc.double({ min: -5, max: 38, noNaN: true }),
        (a, b, t) => {
          const [bright, dim] = a <= b ? [a, b] : [b, a];
          expect(probabilitySeen(bright, t, 0.03, 0.01)).toBeGreaterThanOrEqual(probabilitySeen(dim, t, 0.03, 0.01) - 1e-12);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("the normal CDF is accurate to 1e-6", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1.644854)).toBeCloseTo(0.05, 6);
  });
});
