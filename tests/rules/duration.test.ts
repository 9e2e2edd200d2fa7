import { describe, expect, it } from "vitest";
import { Pattern, type SorsLocations, Strategy } from "../../core/model/enums.ts";
import { durationBaseTime, estimatedDurationSeconds, type DurationInputs } from "../../core/rules/duration.ts";

// Scheduling seed §9: "Estimated duration in seconds = base time for pattern and strategy divided by (2000 divided by
// stimuli update, adaptive counting as 2000), rounded, plus 85 with audio guide, 50 with gaze tracking, 120 with
// tutorial. Unknown combinations give no estimate."
const plain = (pattern: Pattern, strategy: Strategy, sorsStage: SorsLocations = 36): DurationInputs => ({
  pattern,
  strategy,
  sorsStage,
  stimuliUpdate: 2000,
  audioGuide: false,
  trackGaze: false,
  tutorial: false,
});

describe("every base time of scheduling seed §9", () => {
  const rows: Array<[string, Pattern, Strategy, SorsLocations, number]> = [
    // "24-2: Normal 575, DS 329.4, Supra 129.6; SORS with 10/20/36/48/54 points = 61.8/104/217.2/282.6/318."
    ["24-2 Normal 575", Pattern.P24_2, Strategy.Normal, 36, 575],
    ["24-2 DS 329.4", Pattern.P24_2, Strategy.DS, 36, 329.4],
    ["24-2 Supra 129.6", Pattern.P24_2, Strategy.Supra, 36, 129.6],
    ["24-2 SORS 10 = 61.8", Pattern.P24_2, Strategy.SORS, 10, 61.8],
    ["24-2 SORS 20 = 104", Pattern.P24_2, Strategy.SORS, 20, 104],
    ["24-2 SORS 36 = 217.2", Pattern.P24_2, Strategy.SORS, 36, 217.2],
    ["24-2 SORS 48 = 282.6", Pattern.P24_2, Strategy.SORS, 48, 282.6],
    ["24-2 SORS 54 = 318", Pattern.P24_2, Strategy.SORS, 54, 318],
    // "G: Normal 690.6, DS 364.2, Supra 141.84; SORS 10/20/36/48/54 = 61.8/123.6/217.2/282.6/347.4."
    ["G Normal 690.6", Pattern.G, Strategy.Normal, 36, 690.6],
    ["G DS 364.2", Pattern.G, Strategy.DS, 36, 364.2],
    ["G Supra 141.84", Pattern.G, Strategy.Supra, 36, 141.84],
    ["G SORS 10 = 61.8", Pattern.G, Strategy.SORS, 10, 61.8],
    ["G SORS 20 = 123.6", Pattern.G, Strategy.SORS, 20, 123.6],
    ["G SORS 36 = 217.2", Pattern.G, Strategy.SORS, 36, 217.2],
    ["G SORS 48 = 282.6", Pattern.G, Strategy.SORS, 48, 282.6],
    ["G SORS 54 = 347.4", Pattern.G, Strategy.SORS, 54, 347.4],
    // "10-2: Normal 802.2, DS 463.8, Supra 165.6."
    ["10-2 Normal 802.2", Pattern.P10_2, Strategy.Normal, 36, 802.2],
    ["10-2 DS 463.8", Pattern.P10_2, Strategy.DS, 36, 463.8],
    ["10-2 Supra 165.6", Pattern.P10_2, Strategy.Supra, 36, 165.6],
    // "30-2: Normal 802.2, DS 463.8, Supra 180."
    ["30-2 Normal 802.2", Pattern.P30_2, Strategy.Normal, 36, 802.2],
    ["30-2 DS 463.8", Pattern.P30_2, Strategy.DS, 36, 463.8],
    ["30-2 Supra 180", Pattern.P30_2, Strategy.Supra, 36, 180],
    // "28 screening: Supra 64.8. Esterman: 1LT 340."
    ["28 screening Supra 64.8", Pattern.S28, Strategy.Supra, 36, 64.8],
    ["Esterman 1LT 340", Pattern.Esterman, Strategy.OneLevel, 36, 340],
  ];
  it.each(rows)("%s", (_name, pattern, strategy, sors, base) => {
    expect(durationBaseTime(pattern, strategy, sors)).toBe(base);
    expect(estimatedDurationSeconds(plain(pattern, strategy, sors))).toBe(Math.round(base));
  });
});

describe("the duration formula (scheduling seed §9)", () => {
  it("'divided by (2000 divided by stimuli update, adaptive counting as 2000), rounded'", () => {
    // G Normal 690.6: at 1000 ms -> 345.3 -> 345; at 2500 -> 863.25 -> 863; adaptive like 2000 -> 691
    expect(estimatedDurationSeconds({ ...plain(Pattern.G, Strategy.Normal), stimuliUpdate: 1000 })).toBe(345);
    expect(estimatedDurationSeconds({ ...plain(Pattern.G, Strategy.Normal), stimuliUpdate: 2500 })).toBe(863);
    expect(estimatedDurationSeconds({ ...plain(Pattern.G, Strategy.Normal), stimuliUpdate: 9999 })).toBe(691);
    // 24-2 SORS 10 = 61.8 at 1200 ms -> 37.08 -> 37; at 1500 -> 46.35 -> 46
    expect(estimatedDurationSeconds({ ...plain(Pattern.P24_2, Strategy.SORS, 10), stimuliUpdate: 1200 })).toBe(37);
    expect(estimatedDurationSeconds({ ...plain(Pattern.P24_2, Strategy.SORS, 10), stimuliUpdate: 1500 })).toBe(46);
  });
  it("'plus 85 with audio guide, 50 with gaze tracking, 120 with tutorial'", () => {
    const base = plain(Pattern.Esterman, Strategy.OneLevel);
    expect(estimatedDurationSeconds({ ...base, audioGuide: true })).toBe(340 + 85);
    expect(estimatedDurationSeconds({ ...base, trackGaze: true })).toBe(340 + 50);
    expect(estimatedDurationSeconds({ ...base, tutorial: true })).toBe(340 + 120);
    expect(estimatedDurationSeconds({ ...base, audioGuide: true, trackGaze: true, tutorial: true })).toBe(340 + 255);
  });
  it("'Unknown combinations give no estimate': C40, SORS screening (16, not in the table), strategies a pattern lacks", () => {
    expect(estimatedDurationSeconds(plain(Pattern.C40, Strategy.OneLevel))).toBeUndefined();
    expect(estimatedDurationSeconds(plain(Pattern.G, Strategy.SORS_screening, 16))).toBeUndefined();
    expect(estimatedDurationSeconds(plain(Pattern.G, Strategy.SORS, 16))).toBeUndefined();
    expect(estimatedDurationSeconds(plain(Pattern.P10_2, Strategy.SORS, 36))).toBeUndefined();
    expect(estimatedDurationSeconds(plain(Pattern.Undefined, Strategy.Normal))).toBeUndefined();
    expect(estimatedDurationSeconds(plain(Pattern.G, Strategy.Undefined))).toBeUndefined();
    expect(estimatedDurationSeconds({ ...plain(Pattern.C40, Strategy.OneLevel), audioGuide: true })).toBeUndefined();
  });
});
