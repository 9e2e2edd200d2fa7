import { instantOfWallClock } from "../model/clinic-time.ts";

// Reading a DICOM dataset as dcmjs naturalizes it (keyword -> value; a sequence an array of such objects; a person name
// [{Alphabetic}]; several values an array). One place for the shapes, so the OPV reader reads attributes, not shapes.

export type Dataset = Readonly<Record<string, unknown>>;

const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);

/** A text attribute, trimmed; null when absent or empty. Several values are joined with a backslash, as DICOM writes them. */
export function text(ds: Dataset, keyword: string): string | null {
  const v = ds[keyword];
  if (v === undefined || v === null) return null;
  const parts = (Array.isArray(v) ? v : [v]).map((p) =>
    typeof p === "object" && p !== null && "Alphabetic" in p ? String((p as { Alphabetic?: unknown }).Alphabetic ?? "") : String(p),
  );
  const joined = parts.join("\\").trim();
  return joined === "" ? null : joined;
}

/**
 * The shortest decimal that a single-precision value stands for: an FL attribute (SensitivityValue, the deviations)
 * holds 27.2 as 27.200000762939453, which is not the 27.2 the perimeter measured. A value that is not single-precision
 * (a DS read from its text) is left as it is.
 */
export function fromFloat32(v: number): number {
  if (Number.isInteger(v) || Math.fround(v) !== v) return v;
  for (let digits = 1; digits <= 9; digits++) {
    const shortest = Number(v.toPrecision(digits));
    if (Math.fround(shortest) === v) return shortest;
  }
  return v;
}

/** A numeric attribute (DS, IS, FL, US...); null when absent, empty or not a finite number. */
export function num(ds: Dataset, keyword: string): number | null {
  const v = first(ds[keyword]);
  if (v === undefined || v === null || v === "") return null;
  const n = typeof v === "number" ? fromFloat32(v) : Number(String(v).trim());
  return Number.isFinite(n) ? n : null;
}

/** A sequence's items; empty when absent. */
export function items(ds: Dataset, keyword: string): Dataset[] {
  const v = ds[keyword];
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).filter((x): x is Dataset => typeof x === "object" && x !== null);
}

/** The first item of a sequence, or null. */
export const item = (ds: Dataset, keyword: string): Dataset | null => items(ds, keyword)[0] ?? null;

export interface CodedEntry {
  readonly value: string;
  readonly scheme: string;
  readonly meaning: string;
}

export const coded = (ds: Dataset): CodedEntry | null => {
  const value = text(ds, "CodeValue") ?? text(ds, "LongCodeValue") ?? text(ds, "URNCodeValue");
  if (value === null) return null;
  return { value, scheme: text(ds, "CodingSchemeDesignator") ?? "", meaning: text(ds, "CodeMeaning") ?? value };
};

/** YYYYMMDD as an ISO date; null when it is not a real calendar day. */
export function isoDate(da: string | null): string | null {
  const m = da === null ? null : /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(da.trim());
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

/**
 * A DA + TM (and the dataset's TimezoneOffsetFromUTC, "+0100") as an ISO instant in UTC. Without an offset the time is
 * the wall clock of `timeZone` (the importer's: the clinic's), as a perimeter writes its local time.
 */
export function instant(da: string | null, tm: string | null, offset: string | null, timeZone = "UTC"): string | null {
  const date = isoDate(da);
  if (date === null) return null;
  const t = /^(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?(?:\.(\d{1,6}))?$/.exec((tm ?? "").trim());
  const [hh, mm, ss, frac] = t ? [t[1]!, t[2] ?? "00", t[3] ?? "00", (t[4] ?? "").padEnd(3, "0").slice(0, 3)] : ["00", "00", "00", "000"];
  const wall = `${date}T${hh}:${mm}:${ss}.${frac}`;
  if (Number.isNaN(Date.parse(`${wall}Z`))) return null;
  const o = /^([+-])(\d{2}):?(\d{2})$/.exec((offset ?? "").trim());
  return o ? new Date(`${wall}${o[1]}${o[2]}:${o[3]}`).toISOString() : instantOfWallClock(wall, timeZone);
}

/** "Wagner^Felix^^^" as Isopter writes names: given names, then the family name ("Felix Wagner"). */
export function personName(pn: string | null): string | null {
  if (pn === null) return null;
  const [family = "", given = "", middle = ""] = pn
    .split("=")[0]!
    .split("^")
    .map((s) => s.trim());
  const name = [given, middle, family].filter(Boolean).join(" ");
  return name === "" ? null : name;
}
