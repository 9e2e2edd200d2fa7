import type { HodappCriterionId } from "../../core/analytics/stages/index.ts";
import type { ExportRecord } from "./record.ts";

// The field's glaucoma stages (issue 30, core/analytics/stages) as FHIR Observations, one per method, in Isopter's own
// code system (no published code names them): the Hodapp-Parrish-Anderson stage with each criterion's value as a
// component, the GSS 2 stage with the Humphrey MD and PSD it was read from, the AGIS score with its nasal and hemifield
// parts, the CIGTS score. Each names its paper and the normative database in `method` and is derivedFrom the result's
// sensitivity Observation (and the MD and PSD ones where it reads those indices). A method that does not apply (10-2,
// G, screenings, no normative database) gives no Observation, as MD does without normals; the page says why.

type Json = Record<string, unknown>;
type Coding = { system: string; code: string; display: string };

/** What fhir-resources.ts gives (passed in: it imports this file, so this file may not import it). */
export interface StageTools {
  /** Isopter's code system (fhir-resources.ts systems.isopter). */
  readonly system: string;
  readonly ucum: string;
  /** The normative database the result was read against, as Observation.method (normativeMethod). */
  readonly normativeMethod: (r: ExportRecord) => Json | null;
  /** The fullUrl of one of the result's Observations by its definition key ("sensitivity", "md", "psd"). */
  readonly observationUrl: (r: ExportRecord, key: string) => string;
}

/** ObservationDefinition of fhir-resources.ts, structurally. */
export interface StageObservationDefinition {
  readonly key: string;
  readonly code: Coding;
  readonly profiled: false;
  value(r: ExportRecord): Json | null;
}

const criterionDisplays: Record<HodappCriterionId, string> = {
  md: "Mean deviation (Humphrey STATPAC weighting)",
  "pd-below-5": "Pattern deviation points below 5 %",
  "pd-below-1": "Pattern deviation points below 1 %",
  "central-below-15": "Points within 5 degrees of fixation below 15 dB",
  "central-at-0": "Points within 5 degrees of fixation at 0 dB",
  "central-below-15-hemifields": "Hemifields with a point below 15 dB within 5 degrees of fixation",
};

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

export function stageDefinitions(tools: StageTools): StageObservationDefinition[] {
  const code = (c: string, display: string): Coding => ({ system: tools.system, code: c, display });
  const dB = (value: number) => ({ value: round(value, 4), unit: "dB", system: tools.ucum, code: "dB" });
  const score = (value: number) => ({ value: round(value, 4), unit: "score", system: tools.ucum, code: "1" });
  const component = (c: Coding, value: Json) => ({ code: { coding: [c], text: c.display }, ...value });
  /** The method (paper and normative database) and the Observations the value was read from. */
  const provenance = (r: ExportRecord, paper: string, from: readonly string[]) => {
    const normals = tools.normativeMethod(r) as { method: { text: string } } | null;
    return {
      method: { text: normals ? `${paper}. ${normals.method.text}` : paper },
      derivedFrom: from.map((key) => ({ reference: tools.observationUrl(r, key) })),
    };
  };
  return [
    {
      key: "stage-hpa",
      code: code("glaucoma-stage-hpa", "Glaucoma stage (Hodapp-Parrish-Anderson)"),
      profiled: false,
      value: (r) => {
        const s = r.analysis().stages.hodapp;
        if (!s.applicable) return null;
        return {
          valueCodeableConcept: { coding: [code(`hpa-${s.stage}`, `${s.stage} (Hodapp-Parrish-Anderson)`)], text: s.stage },
          ...provenance(r, "Hodapp, Parrish & Anderson, Clinical decisions in glaucoma, 1993", ["sensitivity", "md"]),
          component: s.criteria.map((c) =>
            component(
              code(`hpa-${c.id}`, criterionDisplays[c.id]),
              c.id === "md" ? { valueQuantity: dB(c.value) } : { valueInteger: c.value },
            ),
          ),
        };
      },
    },
    {
      key: "stage-gss2",
      code: code("glaucoma-stage-gss2", "Glaucoma Staging System 2 stage"),
      profiled: false,
      value: (r) => {
        const s = r.analysis().stages.gss2;
        if (!s.applicable) return null;
        const text = s.stage === "borderline" ? "border-line" : `stage ${s.stage}`;
        return {
          valueCodeableConcept: { coding: [code(`gss2-${s.stage}`, `GSS 2 ${text}`)], text },
          ...provenance(r, "Brusini & Filacorda, J Glaucoma 2006;15:40-46, from Humphrey MD and PSD", ["sensitivity", "md", "psd"]),
          component: [
            component(code("gss2-md", "Mean deviation (Humphrey STATPAC weighting)"), { valueQuantity: dB(s.md) }),
            component(code("gss2-psd", "Pattern standard deviation (Humphrey STATPAC weighting)"), { valueQuantity: dB(s.psd) }),
          ],
        };
      },
    },
    {
      key: "score-agis",
      code: code("glaucoma-score-agis", "AGIS visual field defect score (0-20)"),
      profiled: false,
      value: (r) => {
        const s = r.analysis().stages.agis;
        if (!s.applicable) return null;
        return {
          valueQuantity: score(s.score),
          ...provenance(r, "AGIS Investigators (Gaasterland et al.), Ophthalmology 1994;101:1445-1455", ["sensitivity"]),
          component: [
            component(code("agis-nasal", "AGIS nasal defect score (0-2)"), { valueInteger: s.nasal }),
            component(code("agis-upper", "AGIS upper hemifield score (0-9)"), { valueInteger: s.upper }),
            component(code("agis-lower", "AGIS lower hemifield score (0-9)"), { valueInteger: s.lower }),
          ],
        };
      },
    },
    {
      key: "score-cigts",
      code: code("glaucoma-score-cigts", "CIGTS visual field score (0-20)"),
      profiled: false,
      value: (r) => {
        const s = r.analysis().stages.cigts;
        if (!s.applicable) return null;
        return {
          valueQuantity: score(s.score),
          ...provenance(r, "Musch et al., Ophthalmology 1999;106:653-662; Gillespie et al., IOVS 2003", ["sensitivity"]),
        };
      },
    },
  ];
}
