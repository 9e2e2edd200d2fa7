import type { Pattern } from "../../model/enums.ts";
import { globalIndexNames, lutProbabilities, type GlobalIndexName, type NormativeTables } from "./tables.ts";

/**
 * Converts visualFields 1.0.8's exported normative values (normvals-*.json, parsed) into our tables.
 * The package's look-up tables carry -Inf / +Inf sentinel rows at probabilities 0 and 1; we keep only the
 * eight inner rows (a value at or above the 99.5 % row gets level 1, as in the package).
 */
export interface PackageNormvals {
  readonly name: string;
  readonly nloc: number;
  readonly bs0: readonly number[];
  readonly agem: { readonly intercept: ReadonlyArray<number | null>; readonly slope: ReadonlyArray<number | null> };
  readonly sd: {
    readonly vf: ReadonlyArray<number | null>;
    readonly td: ReadonlyArray<number | null>;
    readonly pd: ReadonlyArray<number | null>;
  };
  readonly luts: {
    readonly probs: readonly number[];
    readonly td: ReadonlyArray<{ readonly prob: number; readonly values: ReadonlyArray<number | string | null> }>;
    readonly pd: ReadonlyArray<{ readonly prob: number; readonly values: ReadonlyArray<number | string | null> }>;
    readonly g: { readonly rows: ReadonlyArray<Record<string, number | string>> };
  };
  readonly parameters: { readonly ghRank: number };
}

const finite = (v: number | string | null, where: string): number | null => {
  if (v === null) return null;
  if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`${where}: expected a finite number, got ${String(v)}`);
  return v;
};

function innerRows(rows: PackageNormvals["luts"]["td"], what: string) {
  return lutProbabilities.map((p) => {
    const row = rows.find((r) => r.prob === p);
    if (!row) throw new Error(`luts.${what}: no row for probability ${p}`);
    return row.values.map((v, i) => finite(v, `luts.${what}[${p}][${i}]`));
  });
}

export function tablesFromPackage(nv: PackageNormvals, meta: { version: string; pattern: Pattern; source: string }): NormativeTables {
  const globalLut = lutProbabilities.map((p) => {
    const row = nv.luts.g.rows.find((r) => r.prob === p);
    if (!row) throw new Error(`luts.g: no row for probability ${p}`);
    const out = {} as Record<GlobalIndexName, number>;
    for (const name of globalIndexNames) out[name] = finite(row[name] ?? null, `luts.g[${p}].${name}`) ?? NaN;
    return out;
  });
  return {
    version: meta.version,
    pattern: meta.pattern,
    source: meta.source,
    method: "smooth",
    nloc: nv.nloc,
    blindSpotIndices: [...nv.bs0],
    intercept: [...nv.agem.intercept],
    slope: [...nv.agem.slope],
    sd: { vf: [...nv.sd.vf], td: [...nv.sd.td], pd: [...nv.sd.pd] },
    ghRank: nv.parameters.ghRank,
    tdLut: innerRows(nv.luts.td, "td"),
    pdLut: innerRows(nv.luts.pd, "pd"),
    globalLut,
    ght: null,
  };
}
