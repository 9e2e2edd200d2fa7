import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { batteryDisplay, batteryLed } from "../../core/device/battery.ts";

describe("battery display bands (scheduling seed §9)", () => {
  it("'Display bands: none or 0-5 empty red, 5-20 red, 20-40 yellow, 40-60 green, 60-80, 80-95, 95-100 full.'", () => {
    expect(batteryDisplay(null)).toEqual({ band: "empty", bars: 0, colour: "red" });
    expect(batteryDisplay(undefined).band).toBe("empty");
    expect(batteryDisplay(0).band).toBe("empty");
    expect(batteryDisplay(4.9).band).toBe("empty");
    expect(batteryDisplay(5)).toEqual({ band: "5-20", bars: 1, colour: "red" });
    expect(batteryDisplay(19)).toMatchObject({ band: "5-20", colour: "red" });
    expect(batteryDisplay(20)).toMatchObject({ band: "20-40", colour: "yellow" });
    expect(batteryDisplay(40)).toMatchObject({ band: "40-60", colour: "green" });
    expect(batteryDisplay(60).band).toBe("60-80");
    expect(batteryDisplay(80).band).toBe("80-95");
    expect(batteryDisplay(95).band).toBe("full");
    expect(batteryDisplay(100)).toEqual({ band: "full", bars: 6, colour: "green" });
  });

  it("bars never fall as the level rises", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), fc.double({ min: 0, max: 100, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(batteryDisplay(lo).bars).toBeLessThanOrEqual(batteryDisplay(hi).bars);
      }),
      { numRuns: 100 },
    );
  });
});

describe("battery LED (scheduling seed §9)", () => {
  it("'Battery LED: blue above 20%, flashing red below 20%, green when full'", () => {
    expect(batteryLed(50, false)).toEqual({ colour: "blue", flashing: false });
    expect(batteryLed(21, false).colour).toBe("blue");
    expect(batteryLed(19, false)).toEqual({ colour: "red", flashing: true });
    expect(batteryLed(100, false)).toEqual({ colour: "green", flashing: false });
  });

  it("'yellow while charging below 98%, red while charging below 20%'", () => {
    expect(batteryLed(50, true)).toEqual({ colour: "yellow", flashing: false });
    expect(batteryLed(97.9, true).colour).toBe("yellow");
    expect(batteryLed(19, true)).toEqual({ colour: "red", flashing: false });
    expect(batteryLed(98, true).colour).toBe("green");
  });
});
