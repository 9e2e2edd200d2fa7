import fc from "fast-check";
import { Result } from "effect";
import { describe, expect, it } from "vitest";
import { checkProgramme, EVERY_DAYS_RANGE, type HomeProgramme, HomeProgrammeSchema } from "../../core/home/programme.ts";
import { decode } from "../../core/model/decode.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { anyEye, anyPattern, anyStrategy } from "../rules/arbitraries.ts";
import { tableRow } from "../rules/table-oracle.ts";
import { weekly } from "./fixtures.ts";

const rules = (p: HomeProgramme) => checkProgramme(p).map((r) => r.rule);

describe("a home programme within the seeds' rules", () => {
  it("a weekly 24-2 DS programme for both eyes is allowed", () => {
    expect(checkProgramme(weekly)).toEqual([]);
    expect(Result.isSuccess(decode(HomeProgrammeSchema, weekly))).toBe(true);
  });

  it("decoding names the field of a frequency the schema does not know", () => {
    const bad = decode(HomeProgrammeSchema, { ...weekly, frequency: { kind: "yearly" } });
    expect(Result.isFailure(bad)).toBe(true);
    if (Result.isFailure(bad)) expect(bad.failure.field).toMatch(/^frequency/);
  });

  it("refuses what the §5 table does not allow, naming the rule and the value", () => {
    // "SORS strategies are not offered for 10-2 or 30-2." (scheduling seed §5)
    expect(checkProgramme({ ...weekly, pattern: Pattern.P10_2, strategy: Strategy.SORS })).toEqual([
      { rule: "strategy-for-pattern", field: "strategy", value: "SORS" },
    ]);
    // "S28 | Supra only (locked)"
    expect(rules({ ...weekly, pattern: Pattern.S28, strategy: Strategy.DS })).toEqual(["strategy-for-pattern"]);
    // "Esterman | 1LT only (locked) | IV | Binocular (eye locked)"
    expect(checkProgramme({ ...weekly, pattern: Pattern.Esterman, strategy: Strategy.OneLevel, eyes: [Eye.Binocular] })).toEqual([]);
    expect(checkProgramme({ ...weekly, pattern: Pattern.Esterman, strategy: Strategy.OneLevel })).toEqual([
      { rule: "eye-for-pattern", field: "eyes", value: Eye.Right },
      { rule: "eye-for-pattern", field: "eyes", value: Eye.Left },
    ]);
    // "'Both eyes' is offered only when creating": stand-alone repeats one measurement, so both eyes are two eyes.
    expect(rules({ ...weekly, eyes: [Eye.Both] })).toEqual(["eye-for-pattern"]);
    expect(rules({ ...weekly, pattern: Pattern.Undefined })).toEqual(["pattern-offered"]);
  });

  it("refuses no eye or an eye twice, dates out of order, a frequency out of range, a bad time or zone", () => {
    expect(rules({ ...weekly, eyes: [] })).toEqual(["eyes-listed-once"]);
    expect(rules({ ...weekly, eyes: [Eye.Left, Eye.Left] })).toEqual(["eyes-listed-once"]);
    expect(checkProgramme({ ...weekly, end: "2025-12-31" })).toEqual([{ rule: "dates", field: "end", value: "2025-12-31" }]);
    expect(checkProgramme({ ...weekly, end: weekly.start })).toEqual([]); // a one-day programme: one session
    expect(rules({ ...weekly, start: "2026-02-30" })).toEqual(["dates"]);
    expect(rules({ ...weekly, frequency: { kind: "every", days: EVERY_DAYS_RANGE.min - 1 } })).toEqual(["frequency-range"]);
    expect(rules({ ...weekly, frequency: { kind: "every", days: EVERY_DAYS_RANGE.max + 1 } })).toEqual(["frequency-range"]);
    expect(rules({ ...weekly, frequency: { kind: "every", days: 14 } })).toEqual([]);
    expect(rules({ ...weekly, reminderTime: "24:00" })).toEqual(["reminder-time"]);
    expect(rules({ ...weekly, reminderTime: "07:60" })).toEqual(["reminder-time"]);
    expect(rules({ ...weekly, timeZone: "Mars/Olympus_Mons" })).toEqual(["time-zone"]);
  });

  it("allows a pattern, strategy and eye exactly when the seed's table does (restated in tests/rules/table-oracle.ts)", () => {
    fc.assert(
      fc.property(anyPattern, anyStrategy, anyEye, (pattern, strategy, eye) => {
        const row = tableRow[pattern];
        const expected =
          row === undefined
            ? ["pattern-offered"]
            : [
                ...((row.strategies as readonly number[]).includes(strategy) ? [] : ["strategy-for-pattern"]),
                ...((row.eyes as readonly number[]).includes(eye) && eye !== Eye.Both ? [] : ["eye-for-pattern"]),
              ];
        expect(rules({ ...weekly, pattern, strategy, eyes: [eye] })).toEqual(expected);
      }),
    );
  });
});
