import { describe, expect, it } from "vitest";
import { Schema } from "effect";
import { METHOD_IDS } from "../../core/analytics/progression/criteria/index.ts";
import { Eye, Strategy } from "../../core/model/enums.ts";
import { BundleSchema, type Observation } from "../../core/import/fhir-schema.ts";
import { exportContext } from "../../cli/export/context.ts";
import { fhirBundleWriter } from "../../cli/export/fhir.ts";
import { fullUrl, systems } from "../../cli/export/fhir-resources.ts";
import { exportRecord, type ExportRecord } from "../../cli/export/record.ts";
import { r4Issues } from "./fhir-validation.ts";
import { FAKE_ORGANISATION, memorySink, sampleMeasurement, samplePatient } from "./fixtures.ts";

// Issue 30 §2: the eye's progression criteria in FHIR: an Observation per method (its verdict, or not applicable and
// why) and one for the reading, in Isopter's code system, with the eye's latest result; valid R4 and our strict Schema.

const strict = { onExcessProperty: "error" } as const;
const context = exportContext(FAKE_ORGANISATION, { timeZone: "Europe/Berlin" });
const p = samplePatient(9);
/** Six right-eye 24-2 results half a year apart, and one left-eye result. */
const records = (): ExportRecord[] =>
  [
    ...[0, 1, 2, 3, 4, 5].map(
      (k) =>
        exportRecord(
          p,
          sampleMeasurement(p, k, {
            eye: Eye.Right,
            strategy: Strategy.DS,
            takenAt: new Date(Date.UTC(2020, 0, 6) + k * 182.625 * 86_400_000).toISOString(),
          }),
        )!,
    ),
    exportRecord(p, sampleMeasurement(p, 9, { eye: Eye.Left, strategy: Strategy.DS, takenAt: "2021-06-01T09:00:00.000Z" }))!,
  ].sort((a, b) => a.result.takenAt.localeCompare(b.result.takenAt));

async function bundle(rs = records()) {
  const sink = memorySink();
  const writer = fhirBundleWriter(sink, { context, type: "transaction", now: () => new Date("2026-01-02T03:04:05Z") });
  for (const r of rs) await writer.write(r);
  await writer.end();
  return JSON.parse(sink.text());
}

describe("the progression criteria in FHIR", () => {
  it("with the eye's latest result: one Observation per method and the reading, listed by its report; the others carry none", async () => {
    const decoded = Schema.decodeUnknownSync(BundleSchema)(await bundle(), strict);
    const resources = decoded.entry.map((e) => e.resource);
    const observations = resources.filter((r): r is Observation => r.resourceType === "Observation");
    const criteria = observations.filter(
      (o) => o.code.coding[0]!.system === systems.isopter && o.code.coding[0]!.code.startsWith("progression-"),
    );
    // The left eye (1 result, written with it, the fourth) and the right (6 results, with the last): each its own series.
    expect(criteria).toHaveLength(2 * (METHOD_IDS.length + 1));
    const right = criteria.slice(METHOD_IDS.length + 1);
    expect(right.map((o) => o.code.coding[0]!.code)).toEqual([...METHOD_IDS.map((id) => `progression-${id}`), "progression-reading"]);
    for (const o of right) expect(o.bodySite.text).toBe("right eye");

    // The latest report of each eye lists them; the earlier ones do not.
    const ids = new Set(criteria.map((o) => `urn:uuid:${o.id}`));
    const listed = resources.flatMap((r) =>
      r.resourceType === "DiagnosticReport" ? [r.result.filter((x) => ids.has(x.reference)).length] : [],
    );
    const all = METHOD_IDS.length + 1;
    expect(listed).toEqual([0, 0, 0, all, 0, 0, all]);

    // Each method: its verdict in vfprogression's words, or "not applicable" and why; its paper as the method.
    for (const o of right.slice(0, -1)) {
      if (o.valueCodeableConcept) expect(["worsening", "stable", "improving"]).toContain(o.valueCodeableConcept.coding[0]!.code);
      else
        expect(o.dataAbsentReason).toMatchObject({
          coding: [{ code: "not-applicable" }],
          text: expect.stringMatching(/^not applicable: /),
        });
      expect(o.method!.text.length).toBeGreaterThan(5);
      expect(o.derivedFrom!.map((d) => d.reference)).toEqual(
        [0, 1, 2, 3, 4, 5].map((k) => fullUrl("Observation", `${p.id}-m${k}:sensitivity`)),
      );
    }
    // Six results: GPA's VFI rule asks 5 over 2 years (2.5 here), CIGTS 5: every method applies to this series.
    expect(right.slice(0, -1).filter((o) => o.dataAbsentReason).length).toBeLessThanOrEqual(1);
    const reading = right.at(-1)!;
    expect(reading.hasMember!.map((m) => m.reference)).toEqual(right.slice(0, -1).map((o) => `urn:uuid:${o.id}`));
    expect(reading.valueCodeableConcept!.text).toMatch(/(worsening|stable|improving) by \d of \d methods|no majority|no reading/);
    expect(reading.component!.map((c) => c.code.coding[0]!.code).slice(0, 4)).toEqual([
      "methods-worsening",
      "methods-stable",
      "methods-improving",
      "methods-applicable",
    ]);
    // The left eye's one result: every method not applicable (too few results).
    const left = criteria.slice(0, METHOD_IDS.length);
    for (const o of left) expect(o.bodySite.text).toBe("left eye");
    for (const o of left) expect(o.dataAbsentReason!.text).toBe("not applicable: too few results");

    for (const o of criteria) expect(await r4Issues(o)).toEqual([]);
  });

  it("the ids follow the patient, eye and pattern: a later export (one more result) replaces the same Observations", async () => {
    const readingOf = (json: { entry: Array<{ fullUrl: string; resource: { code?: { coding: Array<{ code: string }> } } }> }) =>
      json.entry.filter((e) => e.resource.code?.coding[0]?.code === "progression-reading").map((e) => e.fullUrl);
    const earlier = readingOf(await bundle(records().slice(0, -1)));
    const later = readingOf(await bundle());
    expect(later).toEqual(earlier);
    expect(later[1]).toBe(fullUrl("Observation", `${p.id}:${Eye.Right}:${records()[0]!.result.pattern}:progression-reading`));
  });
});
