import type {
  CigtsProgressionDetail,
  ClusterTrendDetail,
  EventsDetail,
  MdSlopeDetail,
  MethodId,
  MethodOutcome,
  PlrDetail,
  PoplrDetail,
  SeriesCriteria,
  VfiTrendDetail,
} from "../../core/analytics/progression/criteria/index.ts";
import type { EyeProgression } from "../../core/analytics/progression/eye-progression.ts";
import { methodMessages, methodSources, notApplicableMessage, readingMessage } from "../../core/plots/criteria-text.ts";
import { resolveText } from "../../core/plots/message.ts";

// The eye's progression criteria (issue 30, core/analytics/progression/criteria) as FHIR Observations, in Isopter's own
// code system as the stages are (no published code names them): one per method, valued with its verdict in
// vfprogression's words (worsening, stable, improving) and its figures as components, or, where the method does not
// apply, a dataAbsentReason "not-applicable" saying why; and one for the eye's reading, whose members they are. They
// are written with the eye's latest result on the pattern (its report lists them), as the JSON's progression is, and
// are derivedFrom the sensitivity Observations of the results the analysis read. Their ids follow the patient, eye and
// pattern, so a later export replaces them rather than adding to them.

type Json = Record<string, unknown>;
type Coding = { system: string; code: string; display: string };

/** What fhir-resources.ts gives (passed in: it imports this file). */
export interface CriteriaTools {
  readonly system: string;
  readonly ucum: string;
  /** The fullUrl of a result's Observation by the result's id and the definition key ("sensitivity"). */
  readonly observationUrl: (resultId: string, key: string) => string;
  /** The fullUrl of an Observation of the eye's series by its key (stable per patient, eye and pattern). */
  readonly seriesUrl: (key: string) => string;
}

/** ObservationDefinition of fhir-resources.ts, structurally (its value is made here, not from a record). */
export interface CriteriaObservationDefinition {
  readonly key: string;
  readonly code: Coding;
  readonly profiled: false;
  value(): null;
}

const DATA_ABSENT = "http://terminology.hl7.org/CodeSystem/data-absent-reason";
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

const definitions = new Map<string, CriteriaObservationDefinition>();
/** One definition object per code (fhir.ts prints each definition's constant part once). */
function definition(system: string, key: string, display: string): CriteriaObservationDefinition {
  let d = definitions.get(`${system}|${key}`);
  if (d === undefined)
    definitions.set(`${system}|${key}`, (d = { key, code: { system, code: key, display }, profiled: false, value: () => null }));
  return d;
}

/** The components of a method's figures: a code, a display and a value element. */
function figures(
  m: MethodOutcome,
  c: (code: string, display: string, value: Json) => Json,
  q: (v: number, unit: string, code: string) => Json,
  code: (c: string, display: string) => Coding,
): Json[] {
  if (!m.applicable) return [];
  switch (m.method) {
    case "events": {
      const d = m.detail as EventsDetail;
      return [
        c("events-status", "GPA-style event status", {
          valueCodeableConcept: { coding: [code(d.status.replace(/ /g, "-"), d.status)], text: d.status },
        }),
        c("events-locations-3", "Locations deteriorated on 3 consecutive tests", { valueInteger: d.thrice.length }),
      ];
    }
    case "poplr": {
      const d = m.detail as PoplrDetail;
      return [
        c("poplr-p", "PoPLR p (deterioration)", { valueQuantity: q(d.p, "1", "1") }),
        c("poplr-p-improving", "PoPLR p (improvement)", { valueQuantity: q(d.pImproving, "1", "1") }),
      ];
    }
    case "md-slope":
    case "vfi-trend": {
      const d = m.detail as MdSlopeDetail | VfiTrendDetail;
      // UCUM: per year is "/a" (dB/a as the MD slope's rate, %/a the VFI's).
      const unit = m.method === "md-slope" ? ["dB/year", "dB/a"] : ["%/year", "%/a"];
      const out = [
        c(`${m.method}-slope`, "Slope per year", { valueQuantity: q(d.slopePerYear, unit[0]!, unit[1]!) }),
        c(`${m.method}-p`, "Two-sided p of the slope", { valueQuantity: q(d.p, "1", "1") }),
      ];
      if (m.method === "vfi-trend")
        for (const p of (d as VfiTrendDetail).projection)
          out.push(
            c(`vfi-in-${p.yearsAhead}-years`, `VFI projected ${p.yearsAhead} years after the last exam`, {
              valueQuantity: q(p.vfi, "%", "%"),
            }),
            c(`vfi-in-${p.yearsAhead}-years-band`, `95 % confidence band of the VFI ${p.yearsAhead} years after the last exam`, {
              valueRange: { low: q(p.lower, "%", "%"), high: q(p.upper, "%", "%") },
            }),
          );
      return out;
    }
    case "cigts":
    case "schell-2014": {
      const d = m.detail as CigtsProgressionDetail;
      const [unit, code] = m.method === "cigts" ? ["score", "1"] : ["dB", "dB"];
      return [
        c(`${m.method}-baseline`, "Mean of the two baseline tests", { valueQuantity: q(d.baseline, unit, code) }),
        c(`${m.method}-last-loss`, "Loss from the baseline on the last test", { valueQuantity: q(d.loss.at(-1) ?? 0, unit, code) }),
      ];
    }
    case "plr-nouri-2012":
    case "plr-three-omitting": {
      const d = m.detail as PlrDetail;
      return [
        c(`${m.method}-worsening`, "Locations worsening", { valueInteger: d.worseningLocations.length }),
        c(`${m.method}-improving`, "Locations improving", { valueInteger: d.improvingLocations.length }),
      ];
    }
    case "cluster-trend": {
      const d = m.detail as ClusterTrendDetail;
      return [
        c("clusters-worsening", "Clusters worsening", { valueInteger: d.worseningClusters }),
        c("clusters-improving", "Clusters improving", { valueInteger: d.improvingClusters }),
      ];
    }
  }
}

/** The Observations' keys, definitions and values of one eye's criteria; `usedIds` are the results the analysis read. */
export function criteriaObservations(
  criteria: SeriesCriteria,
  usedIds: readonly string[],
  tools: CriteriaTools,
): Array<{ definition: CriteriaObservationDefinition; fullUrl: string; value: Json }> {
  const code = (c: string, display: string): Coding => ({ system: tools.system, code: c, display });
  const q = (v: number, unit: string, c: string) => ({ value: round(v, 6), unit, system: tools.ucum, code: c });
  const component = (c: string, display: string, value: Json) => ({ code: { coding: [code(c, display)], text: display }, ...value });
  const derivedFrom = usedIds.map((id) => ({ reference: tools.observationUrl(id, "sensitivity") }));
  const verdictOf = (v: string) => ({ coding: [code(v, v)], text: v });
  const methods = criteria.methods.map((m) => {
    const name = resolveText(methodMessages[m.method]);
    const key = `progression-${m.method}`;
    const value: Json = m.applicable
      ? { valueCodeableConcept: verdictOf(m.verdict) }
      : {
          dataAbsentReason: {
            coding: [{ system: DATA_ABSENT, code: "not-applicable", display: "Not Applicable" }],
            text: resolveText(notApplicableMessage(m.reason)),
          },
        };
    const parts = figures(m, component, q, code);
    return {
      definition: definition(tools.system, key, `Progression criterion: ${name}`),
      fullUrl: tools.seriesUrl(key),
      value: {
        ...value,
        method: { text: `${name} (${methodSources[m.method as MethodId]})` },
        ...(parts.length > 0 ? { component: parts } : {}),
        ...(derivedFrom.length > 0 ? { derivedFrom } : {}),
      },
    };
  });
  const r = criteria.reading;
  const reading = {
    definition: definition(tools.system, "progression-reading", "Progression reading of the criteria"),
    fullUrl: tools.seriesUrl("progression-reading"),
    value: {
      valueCodeableConcept: { coding: [code(r.verdict ?? r.basis, r.verdict ?? r.basis)], text: resolveText(readingMessage(r)) },
      method: { text: "Isopter's reading: the verdict of more than half of the applicable criteria; the loss diffuse or localised" },
      component: [
        component("methods-worsening", "Criteria finding worsening", { valueInteger: r.counts.worsening }),
        component("methods-stable", "Criteria finding the eye stable", { valueInteger: r.counts.stable }),
        component("methods-improving", "Criteria finding improvement", { valueInteger: r.counts.improving }),
        component("methods-applicable", "Criteria that apply", { valueInteger: r.counts.applicable }),
        ...(r.pattern ? [component("loss-pattern", "Pattern of the loss", { valueCodeableConcept: verdictOf(r.pattern) })] : []),
      ],
      hasMember: methods.map((m) => ({ reference: m.fullUrl })),
      ...(derivedFrom.length > 0 ? { derivedFrom } : {}),
    },
  };
  return [...methods, reading];
}

/** The criteria of a progression analysis, with the ids it read; none when it kept no result. */
export const progressionCriteria = (p: EyeProgression): { criteria: SeriesCriteria; usedIds: string[] } | null =>
  p.criteria ? { criteria: p.criteria, usedIds: p.used } : null;
