import { describe, expect, it } from "vitest";
import { Eye, Pattern, StimulusSize, Strategy } from "../../core/model/enums.ts";
import { isSorsStrategy, offeredPatterns, patternOptions, showtimesFor, strategiesFor } from "../../core/rules/pattern-options.ts";

const { I, II, III, IV, V } = StimulusSize;
const sided = [Eye.Right, Eye.Left, Eye.Both];

// Scheduling seed §5 "Allowed options per pattern", one test per row.
describe("allowed options per pattern (scheduling seed §5 table)", () => {
  it.each([Pattern.P24_2, Pattern.G])(
    "| 24-2, G | DS, SORS, SORS_screening, Normal, Supra | I to V | Right, Left, Both | 200, 100 | (pattern %s)",
    (p) => {
      expect(patternOptions(p)).toEqual({
        strategies: [Strategy.DS, Strategy.SORS, Strategy.SORS_screening, Strategy.Normal, Strategy.Supra],
        sizes: [I, II, III, IV, V],
        eyes: sided,
        showtimes: [200, 100],
        locked: { strategy: false, eye: false },
      });
    },
  );

  it.each([Pattern.P10_2, Pattern.P30_2])(
    "| 10-2, 30-2 | DS, Normal, Supra | I to V | Right, Left, Both | 200, 100 | (pattern %s)",
    (p) => {
      expect(patternOptions(p)).toEqual({
        strategies: [Strategy.DS, Strategy.Normal, Strategy.Supra],
        sizes: [I, II, III, IV, V],
        eyes: sided,
        showtimes: [200, 100],
        locked: { strategy: false, eye: false },
      });
    },
  );

  it("| S28 | Supra only (locked) | III | Right, Left, Both | 200, 100 |", () => {
    expect(patternOptions(Pattern.S28)).toEqual({
      strategies: [Strategy.Supra],
      sizes: [III],
      eyes: sided,
      showtimes: [200, 100],
      locked: { strategy: true, eye: false },
    });
  });

  it("| Esterman | 1LT only (locked) | IV | Binocular (eye locked) | 500 |", () => {
    expect(patternOptions(Pattern.Esterman)).toEqual({
      strategies: [Strategy.OneLevel],
      sizes: [IV],
      eyes: [Eye.Binocular],
      showtimes: [500],
      locked: { strategy: true, eye: true },
    });
  });

  it("| C40 | 1LT only (locked) | III | Right, Left, Both | 200, 100 |", () => {
    expect(patternOptions(Pattern.C40)).toEqual({
      strategies: [Strategy.OneLevel],
      sizes: [III],
      eyes: sided,
      showtimes: [200, 100],
      locked: { strategy: true, eye: false },
    });
  });

  it("the Undefined pattern is not in the table and offers nothing", () => {
    expect(patternOptions(Pattern.Undefined)).toBeUndefined();
    expect(strategiesFor(Pattern.Undefined)).toEqual([]);
    expect(showtimesFor(Pattern.Undefined)).toEqual([]);
    expect(offeredPatterns).not.toContain(Pattern.Undefined);
    expect(offeredPatterns).toHaveLength(7);
  });

  it("'SORS strategies are not offered for 10-2 or 30-2.'", () => {
    for (const p of [Pattern.P10_2, Pattern.P30_2]) expect(strategiesFor(p).filter(isSorsStrategy)).toEqual([]);
    for (const p of [Pattern.P24_2, Pattern.G])
      expect(strategiesFor(p).filter(isSorsStrategy)).toEqual([Strategy.SORS, Strategy.SORS_screening]);
  });
});
