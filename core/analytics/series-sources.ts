import { Strategy } from "../model/enums.ts";
import { sourceDeviceName, type ImportedSource } from "../model/result-source.ts";

// Where each result of a series came from (issue 29, "Series across devices"): an Isopter headset, or a perimeter whose
// file was imported (manufacturer and model), and the strategy as the result names it (Isopter's own, or the file's
// name for it, "SITA Standard"). A series of one pattern and eye may pool devices and strategies only with a visible
// marker where either changes (FORUM and EyeSuite mark a changed baseline): `seriesChanges` says where, and
// `limitSeries` keeps one device (and, if asked, one strategy), so the chart, the GPA baseline, PoPLR and the VFI trend
// all read the same limited series.

/** What a result says of its source: its strategy code and, when imported, the file's perimeter and strategy name. */
export interface SourcedResult {
  readonly strategy?: Strategy | null;
  /** Absent or null: taken on one of the clinic's Isopter headsets. */
  readonly source?: Pick<ImportedSource, "manufacturer" | "model" | "strategyName"> | null;
}

/** The device key of every Isopter headset: the headsets are one kind of device, whichever one took the result. */
export const ISOPTER_DEVICE = "isopter";

export interface ResultDevice {
  /** ISOPTER_DEVICE, or "imported:" and the perimeter's manufacturer and model. */
  readonly key: string;
  readonly kind: "isopter" | "imported";
  /** The imported perimeter as a reader names it ("Carl Zeiss Meditec HFA3 860"); null for an Isopter headset. */
  readonly name: string | null;
  /** Its model alone ("HFA3 860"), the chart's short label; else the name. Null for an Isopter headset. */
  readonly shortName: string | null;
}

export interface ResultStrategy {
  /** Equal keys are the same strategy: an Isopter code ("code:1"), else the file's name ("name:sita standard"). */
  readonly key: string;
  /** The file's own name of the strategy (imported), else null: then `code` names it. */
  readonly name: string | null;
  /** Isopter's strategy code; Strategy.Undefined when the file named a strategy Isopter does not run (or none). */
  readonly code: Strategy;
}

const trimmed = (s: string | null | undefined): string | null => (s == null || s.trim() === "" ? null : s.trim().replace(/\s+/g, " "));

export function resultDevice(r: SourcedResult): ResultDevice {
  const s = r.source;
  if (!s) return { key: ISOPTER_DEVICE, kind: "isopter", name: null, shortName: null };
  const name = sourceDeviceName({ manufacturer: trimmed(s.manufacturer), model: trimmed(s.model) });
  return { key: `imported:${name.toLowerCase()}`, kind: "imported", name, shortName: trimmed(s.model) ?? name };
}

/**
 * A strategy as the file names it, without the standard's wrapper: CID 4251's Code Meaning "Visual Field SITA-Standard
 * Test Strategy" reads "SITA-Standard" (the stored name stays as the file gave it).
 */
export const strategyShortName = (name: string): string =>
  name
    .replace(/^visual field\s+/i, "")
    .replace(/\s+(test\s+)?strategy$/i, "")
    .trim() || name;

export function resultStrategy(r: SourcedResult): ResultStrategy {
  const code = r.strategy ?? Strategy.Undefined;
  const full = r.source ? trimmed(r.source.strategyName) : null;
  const name = full === null ? null : strategyShortName(full);
  // A file that names one of Isopter's strategies (Isopter's own export imported) keeps the code: the same strategy.
  // Names compare by their letters and digits: "SITA-Standard" and "SITA Standard" are one strategy.
  const key = code !== Strategy.Undefined || name === null ? `code:${code}` : `name:${name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")}`;
  return { key, name, code };
}

export interface SeriesSource {
  readonly device: ResultDevice;
  readonly strategy: ResultStrategy;
  /** Null for the first result; else what changed from the result before it (both false: nothing). */
  readonly changed: { readonly device: boolean; readonly strategy: boolean } | null;
}

/**
 * Each result's device and strategy, for a series of one pattern and eye in time order (the caller's order: sort by
 * takenAt first), and whether its device or its strategy differs from the result before it.
 */
export function seriesSources(series: readonly SourcedResult[]): SeriesSource[] {
  let before: { device: ResultDevice; strategy: ResultStrategy } | null = null;
  return series.map((r) => {
    const device = resultDevice(r),
      strategy = resultStrategy(r);
    const changed = before && { device: before.device.key !== device.key, strategy: before.strategy.key !== strategy.key };
    before = { device, strategy };
    return { device, strategy, changed };
  });
}

export interface SeriesChange<T> {
  /** The position in the series of the first result after the change. */
  readonly index: number;
  readonly result: T;
  readonly device: boolean;
  readonly strategy: boolean;
  readonly from: { readonly device: ResultDevice; readonly strategy: ResultStrategy };
  readonly to: { readonly device: ResultDevice; readonly strategy: ResultStrategy };
}

/** Where the device or the strategy changes in a series in time order: one entry per first result after a change. */
export function seriesChanges<T extends SourcedResult>(series: readonly T[]): Array<SeriesChange<T>> {
  const sources = seriesSources(series);
  const out: Array<SeriesChange<T>> = [];
  sources.forEach((s, index) => {
    if (!s.changed || !(s.changed.device || s.changed.strategy)) return;
    const prev = sources[index - 1]!;
    out.push({
      index,
      result: series[index]!,
      device: s.changed.device,
      strategy: s.changed.strategy,
      from: { device: prev.device, strategy: prev.strategy },
      to: { device: s.device, strategy: s.strategy },
    });
  });
  return out;
}

/** The devices of a patient's results, each once, Isopter's headsets first, then the imported ones by name. */
export function seriesDevices(results: readonly SourcedResult[]): ResultDevice[] {
  const byKey = new Map<string, ResultDevice>();
  for (const r of results) {
    const d = resultDevice(r);
    if (!byKey.has(d.key)) byKey.set(d.key, d);
  }
  return [...byKey.values()].sort((a, b) =>
    a.kind !== b.kind ? (a.kind === "isopter" ? -1 : 1) : (a.name ?? "").localeCompare(b.name ?? "", "en"),
  );
}

/** The strategies of a patient's results, each once, Isopter's codes first (by code), then the files' names. */
export function seriesStrategies(results: readonly SourcedResult[]): ResultStrategy[] {
  const byKey = new Map<string, ResultStrategy>();
  for (const r of results) {
    const s = resultStrategy(r);
    if (!byKey.has(s.key)) byKey.set(s.key, s);
  }
  return [...byKey.values()].sort((a, b) =>
    (a.name === null) !== (b.name === null)
      ? a.name === null
        ? -1
        : 1
      : a.code - b.code || (a.name ?? "").localeCompare(b.name ?? "", "en"),
  );
}

/** Which results a reader keeps: "all", or one device's key (ResultDevice.key) and one strategy's (ResultStrategy.key). */
export interface SeriesLimit {
  readonly device?: string;
  readonly strategy?: string;
}

export const ALL = "all";

/**
 * The results of one device and one strategy (each "all" or absent: any), in their order. A key no result has limits
 * nothing (a stale choice, e.g. the device of another patient's series), so a limit never empties a series by itself.
 */
export function limitSeries<T extends SourcedResult>(results: readonly T[], limit: SeriesLimit): T[] {
  const device = limit.device ?? ALL,
    strategy = limit.strategy ?? ALL;
  const devices = device === ALL ? null : results.filter((r) => resultDevice(r).key === device);
  const one = devices && devices.length > 0 ? devices : [...results];
  if (strategy === ALL) return one;
  const strategies = one.filter((r) => resultStrategy(r).key === strategy);
  return strategies.length > 0 ? strategies : one;
}
