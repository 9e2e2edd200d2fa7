import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Strategy } from "../../core/model/enums.ts";
import {
  ALL,
  ISOPTER_DEVICE,
  limitSeries,
  resultDevice,
  resultStrategy,
  seriesChanges,
  seriesDevices,
  seriesSources,
  seriesStrategies,
  type SourcedResult,
} from "../../core/analytics/series-sources.ts";

// Issue 29 §2 "Series across devices": each result's device (an Isopter headset, or the imported perimeter's
// manufacturer and model) and strategy, the changes of either along a series, and the limit to one device.

type R = SourcedResult & { readonly id: number };

const perimeters = [
  { manufacturer: "Carl Zeiss Meditec", model: "HFA3 860" },
  { manufacturer: "Carl Zeiss Meditec", model: "HFA II-i 750" },
  { manufacturer: "Haag-Streit", model: "Octopus 900" },
  { manufacturer: null, model: null },
];
const names = ["SITA Standard", "SITA Fast", "Full Threshold", "Dynamic", null];
const isopterStrategies = [Strategy.Normal, Strategy.DS, Strategy.SORS];

const result: fc.Arbitrary<Omit<R, "id">> = fc.oneof(
  fc.record({ strategy: fc.constantFrom(...isopterStrategies) }),
  fc.record({
    strategy: fc.constantFrom(Strategy.Undefined, Strategy.Undefined, Strategy.Normal),
    source: fc.record({
      manufacturer: fc.constantFrom(...perimeters.map((p) => p.manufacturer)),
      model: fc.constantFrom(...perimeters.map((p) => p.model)),
      strategyName: fc.constantFrom(...names),
    }),
  }),
);
const series = fc.array(result, { maxLength: 14 }).map((rs) => rs.map((r, id): R => ({ ...r, id })));
const same = (a: SourcedResult, b: SourcedResult) =>
  resultDevice(a).key === resultDevice(b).key && resultStrategy(a).key === resultStrategy(b).key;

describe("series sources (issue 29)", () => {
  it("names a result's device and strategy: an Isopter headset by its code, an import by its file", () => {
    expect(resultDevice({ strategy: Strategy.DS })).toEqual({ key: ISOPTER_DEVICE, kind: "isopter", name: null, shortName: null });
    const hfa = {
      strategy: Strategy.Undefined,
      source: { manufacturer: "Carl Zeiss Meditec", model: "HFA3 860", strategyName: "SITA Standard" },
    };
    expect(resultDevice(hfa)).toMatchObject({ kind: "imported", name: "Carl Zeiss Meditec HFA3 860", shortName: "HFA3 860" });
    expect(resultStrategy(hfa)).toEqual({ key: "name:sitastandard", name: "SITA Standard", code: Strategy.Undefined });
    // CID 4251's Code Meaning, as a Humphrey's OPV carries it, reads without the standard's wrapper and is the same
    // strategy as the name spelt otherwise.
    const coded = { ...hfa, source: { ...hfa.source!, strategyName: "Visual Field SITA-Standard Test Strategy" } };
    expect(resultStrategy(coded)).toEqual({ key: "name:sitastandard", name: "SITA-Standard", code: Strategy.Undefined });
    // Isopter's own export imported again keeps its code: the same strategy as the headset's.
    const own = { strategy: Strategy.Normal, source: { manufacturer: "Isopter", model: "VR", strategyName: "Normal" } };
    expect(resultStrategy(own).key).toBe(resultStrategy({ strategy: Strategy.Normal }).key);
    // Spelling of the same perimeter and strategy in another file (spaces, case) is the same device and strategy.
    const again = {
      strategy: Strategy.Undefined,
      source: { manufacturer: " carl zeiss  meditec", model: "HFA3 860 ", strategyName: "SITA  STANDARD" },
    };
    expect(same(hfa, again)).toBe(true);
    expect(resultDevice({ source: { manufacturer: null, model: null, strategyName: null } })).toMatchObject({ name: "unknown perimeter" });
  });

  it("marks exactly the results whose device or strategy differs from the one before", () => {
    fc.assert(
      fc.property(series, (rs) => {
        const sources = seriesSources(rs);
        expect(sources).toHaveLength(rs.length);
        sources.forEach((s, i) => {
          if (i === 0) return expect(s.changed).toBeNull();
          expect(s.changed).toEqual({
            device: resultDevice(rs[i - 1]!).key !== resultDevice(rs[i]!).key,
            strategy: resultStrategy(rs[i - 1]!).key !== resultStrategy(rs[i]!).key,
          });
        });
        const changes = seriesChanges(rs);
        expect(changes.map((c) => c.index)).toEqual(rs.flatMap((r, i) => (i > 0 && !same(rs[i - 1]!, r) ? [i] : [])));
        for (const c of changes) {
          expect(c.result).toBe(rs[c.index]);
          expect(c.device || c.strategy).toBe(true);
          expect(c.from.device.key === c.to.device.key).toBe(!c.device);
          expect(c.from.strategy.key === c.to.strategy.key).toBe(!c.strategy);
        }
        // Between two changes (and before the first, after the last) the device and the strategy hold.
        const cuts = [0, ...changes.map((c) => c.index), rs.length];
        for (let k = 0; k + 1 < cuts.length; k++)
          for (let i = cuts[k]! + 1; i < cuts[k + 1]!; i++) expect(same(rs[i - 1]!, rs[i]!)).toBe(true);
      }),
    );
  });

  it("limits a series to one device: all of its results, in order, and nothing else; no device change is left", () => {
    fc.assert(
      fc.property(series, fc.nat(), (rs, pick) => {
        expect(limitSeries(rs, { device: ALL })).toEqual(rs);
        expect(limitSeries(rs, {})).toEqual(rs);
        const devices = seriesDevices(rs);
        expect(new Set(devices.map((d) => d.key)).size).toBe(devices.length);
        expect(new Set(rs.map((r) => resultDevice(r).key))).toEqual(new Set(devices.map((d) => d.key)));
        // Isopter's headsets first.
        expect(devices.findIndex((d) => d.kind === "isopter")).toBeLessThanOrEqual(0);
        if (devices.length === 0) return;
        const device = devices[pick % devices.length]!.key;
        const one = limitSeries(rs, { device });
        expect(one).toEqual(rs.filter((r) => resultDevice(r).key === device));
        expect(one.length).toBeGreaterThan(0);
        expect(limitSeries(one, { device })).toEqual(one);
        expect(seriesChanges(one).some((c) => c.device)).toBe(false);
        // A strategy within it: only that strategy, so no change at all is left.
        const strategies = seriesStrategies(one);
        const strategy = strategies[pick % strategies.length]!.key;
        const narrow = limitSeries(rs, { device, strategy });
        expect(narrow).toEqual(one.filter((r) => resultStrategy(r).key === strategy));
        expect(seriesChanges(narrow)).toEqual([]);
      }),
    );
  });

  it("a choice no result has (another patient's device) limits nothing", () => {
    fc.assert(
      fc.property(series, (rs) => {
        expect(limitSeries(rs, { device: "imported:nobody's perimeter" })).toEqual(rs);
        expect(limitSeries(rs, { strategy: "name:no such strategy" })).toEqual(rs);
      }),
    );
  });
});
