import { describe, expect, it } from "vitest";
import { Schema } from "effect";
import { Pattern, Strategy } from "../../core/model/enums.ts";
import { exportContext } from "../../cli/export/context.ts";
import { fhirResources, systems } from "../../cli/export/fhir-resources.ts";
import { ObservationSchema } from "../../core/import/fhir-schema.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { r4Issues } from "./fhir-validation.ts";
import { FAKE_ORGANISATION, sampleMeasurement, samplePatient } from "./fixtures.ts";

// Issue 30 §1: an FHIR Observation per stage (HPA, GSS 2, AGIS, CIGTS) in Isopter's code system, derived from the
// result's Observations; medplum's R4 validation and our own Schema (no unknown elements) accept them.

const strict = { onExcessProperty: "error" } as const;
const context = exportContext(FAKE_ORGANISATION, { timeZone: "Europe/Berlin" });
const stageCodes = ["glaucoma-stage-hpa", "glaucoma-stage-gss2", "glaucoma-score-agis", "glaucoma-score-cigts"];

function entriesOf(pattern: Pattern, strategy: Strategy = Strategy.DS) {
  const p = samplePatient(7);
  const r = exportRecord(p, sampleMeasurement(p, 3, { pattern, strategy }))!;
  return { r, entries: fhirResources(r, context) };
}
const stageObservations = (entries: ReturnType<typeof fhirResources>) =>
  entries.filter((e) => {
    const code = (e.resource as { code?: { coding: Array<{ code: string }> } }).code?.coding[0]?.code;
    return code !== undefined && stageCodes.includes(code);
  });

describe("the glaucoma stages in FHIR", () => {
  it("a 24-2 result: four Observations with the analysis' stages, referenced by the report, derived from its Observations, valid R4", async () => {
    const { r, entries } = entriesOf(Pattern.P24_2);
    const s = r.analysis().stages;
    if (!s.hodapp.applicable || !s.gss2.applicable || !s.agis.applicable || !s.cigts.applicable) throw new Error("not staged");
    const stages = stageObservations(entries);
    // Our Schema, strict: no element it does not know.
    const [hpa, gss2, agis, cigts] = stages.map((e) => Schema.decodeUnknownSync(ObservationSchema)(e.resource, strict));
    expect([hpa, gss2, agis, cigts].map((o) => o!.code.coding[0]!.code)).toEqual(stageCodes);
    expect(hpa!.code.coding[0]!.system).toBe(systems.isopter);
    expect(hpa!.valueCodeableConcept!.coding[0]!.code).toBe(`hpa-${s.hodapp.stage}`);
    expect(hpa!.component!.map((c) => c.valueQuantity?.value ?? c.valueInteger)).toEqual(
      s.hodapp.criteria.map((c) => (c.id === "md" ? Math.round(c.value * 1e4) / 1e4 : c.value)),
    );
    expect(gss2!.valueCodeableConcept!.coding[0]!.code).toBe(`gss2-${s.gss2.stage}`);
    expect(agis!.valueQuantity!.value).toBe(s.agis.score);
    expect(agis!.component!.map((c) => c.valueInteger)).toEqual([s.agis.nasal, s.agis.upper, s.agis.lower]);
    expect(cigts!.valueQuantity!.value).toBeCloseTo(s.cigts.score, 4);
    expect(hpa!.method!.text).toMatch(/^Hodapp, Parrish & Anderson.*\. Normative database: /);
    const urls = new Set(entries.map((e) => e.fullUrl));
    for (const o of [hpa, gss2, agis, cigts]) for (const d of o!.derivedFrom!) expect(urls.has(d.reference)).toBe(true);
    const report = entries[0]!.resource as { result: Array<{ reference: string }> };
    for (const e of stages) expect(report.result.map((x) => x.reference)).toContain(e.fullUrl);
    for (const e of stages) expect(await r4Issues(e.resource)).toEqual([]);
  });

  it("none where the methods do not apply: a 10-2 result, a screening", () => {
    expect(stageObservations(entriesOf(Pattern.P10_2).entries)).toEqual([]);
    expect(stageObservations(entriesOf(Pattern.P24_2, Strategy.Supra).entries)).toEqual([]);
  });
});
