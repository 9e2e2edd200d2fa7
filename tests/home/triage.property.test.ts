import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mdOutlier } from "../../core/home/outlier.ts";
import { triage } from "../../core/home/triage.ts";
import { BIRTHDATE, homeResult, UPPER_TRIPLE } from "./fixtures.ts";

const DAY = 86_400_000;
const EPOCH = Date.UTC(2020, 0, 1);
const dayIso = (n: number) => new Date(EPOCH + n * DAY).toISOString().slice(0, 10);

describe("triage (property)", () => {
  const medianOf = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const n = s.length;
    return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
  };

  it("the MD rule, in hundredths of a dB: an outlier exactly when more than 3 dB from the median of the last five", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -3000, max: 300 }), { minLength: 3, maxLength: 9 }),
        fc.integer({ min: -400, max: 400 }),
        (earlier, d) => {
          const mid = medianOf(earlier.slice(-5));
          const md = Math.round(mid) + d;
          const outcome = mdOutlier(
            md / 100,
            earlier.map((v) => v / 100),
          );
          expect(outcome !== null).toBe(Math.abs(md - mid) > 300);
        },
      ),
      {
        examples: [
          [[0, -50, 20], 300],
          [[0, -50, 20], 301],
          [[0, -50, 20], -300],
          [[0, -50, 20], -301],
        ],
      },
    );
  });

  it("a home result's MD flag follows the 3 dB rule to the hundredth (the field itself analysed)", () => {
    const series = [0, 1, 2].map((k) => homeResult({ id: `r${k}`, takenAt: dayIso(2200 + 7 * k) }));
    fc.assert(
      fc.property(fc.integer({ min: -400, max: 400 }), (hundredths) => {
        const t = triage({
          result: homeResult({ id: "new", takenAt: dayIso(2221), shift: hundredths / 100 }),
          series,
          birthdate: BIRTHDATE,
        });
        const flagged = t.flags.some((f) => f.reasons.some((r) => r.code === "md-from-median"));
        expect(flagged).toBe(Math.abs(hundredths) > 300);
      }),
      { numRuns: 40 },
    );
  });

  it("is deterministic: the same series and result give the same flags", () => {
    const anySpec = fc.record({ shift: fc.integer({ min: -600, max: 100 }), arc: fc.boolean(), fp: fc.integer({ min: 0, max: 6 }) });
    fc.assert(
      fc.property(fc.array(anySpec, { minLength: 2, maxLength: 6 }), anySpec, (earlier, now) => {
        const make = (s: { shift: number; arc: boolean; fp: number }, k: number) =>
          homeResult({
            id: `r${k}`,
            takenAt: dayIso(2200 + 7 * k),
            shift: s.shift / 100,
            fp: s.fp,
            ...(s.arc && { depressed: UPPER_TRIPLE }),
          });
        const series = earlier.map(make);
        const input = { result: make(now, earlier.length), series, birthdate: BIRTHDATE };
        expect(triage(input)).toEqual(triage({ ...input, series: [...series].reverse() }));
      }),
      { numRuns: 25 },
    );
  });
});
