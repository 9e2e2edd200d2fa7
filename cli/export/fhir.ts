import { resultIdSystem } from "../../adapters/interchange/identifier-systems.ts";
import type { ExportContext } from "./context.ts";
import {
  conclusionOf,
  fhirGaps,
  fhirPatient,
  fullUrl,
  idOf,
  observationCategory,
  presentedForm,
  profiles,
  reportCategory,
  reportCode,
  reportLabel,
  resultParts,
  type Entry,
  type ObservationDefinition,
  type ObservationOf,
  type ResultParts,
} from "./fhir-resources.ts";
import { patientSeries } from "./progression.ts";
import type { ExportRecord, PageRenderer } from "./record.ts";
import type { TextSink } from "./sink.ts";
import type { ExportWriter } from "./writer.ts";

// The FHIR Bundle as a stream: each patient once, then each result's report and observations (fhir-resources.ts says
// what they hold), one entry after another, so a bundle of any size is written in steady memory.
// "collection" is a set of resources to read; "transaction" is what a FHIR server ingests (POST it to the base URL):
// patients by conditional update on their identifier (an EHR's existing record is matched by its record number, not
// duplicated), reports and observations by PUT on their stable ids (exporting again updates instead of duplicating).

export const bundleTypes = ["collection", "transaction"] as const;
export type BundleType = (typeof bundleTypes)[number];

export interface FhirBundleOptions {
  readonly context: ExportContext;
  readonly type?: BundleType;
  /** The printed page of a result, attached to its report as presentedForm; none when left out. */
  readonly pdf?: PageRenderer;
  readonly now?: () => Date;
  /** What the IG's resources cannot say of a result (fhirGaps), per result: the export warns naming it. */
  readonly warn?: (r: ExportRecord, message: string) => void;
}

/** The entry as the bundle type wants it: a transaction adds the request and lets the server match patients. */
export function bundleEntry(e: Entry, type: BundleType): Entry & { request?: { method: string; url: string } } {
  if (type === "collection") return e;
  const resource = e.resource as { resourceType: string; id: string; identifier?: Array<{ system: string; value: string }> };
  if (resource.resourceType === "Patient") {
    const { id: _id, ...rest } = resource;
    const mrn = resource.identifier![0]!;
    return {
      fullUrl: e.fullUrl,
      resource: rest,
      request: { method: "PUT", url: `Patient?identifier=${encodeURIComponent(`${mrn.system}|${mrn.value}`)}` },
    };
  }
  return { ...e, request: { method: "PUT", url: `${resource.resourceType}/${resource.id}` } };
}

export function fhirBundleWriter(sink: TextSink, options: FhirBundleOptions): ExportWriter {
  const { context, type = "collection", pdf, now = () => new Date(), warn } = options;
  const seen = new Set<string>();
  let count = 0;
  const entry = (e: Entry) => (count++ === 0 ? "" : ",\n") + JSON.stringify(bundleEntry(e, type));
  let opened = false;
  const open = async () => {
    if (opened) return;
    opened = true;
    await sink.write(`{"resourceType":"Bundle","type":"${type}","timestamp":${JSON.stringify(now().toISOString())},"entry":[\n`);
  };
  // A patient's results are held until the next patient's (progression.ts patientSeries): the eye's latest result on a
  // pattern carries its progression criteria (fhir-criteria.ts), as the JSON export's does, and its printed page the
  // visit's binocular field (pdf/report.ts pagePrinter).
  const series = patientSeries(async (r, progression, patientRecords) => {
    // One write per result: the sink gathers chunks anyway, and an await per entry costs more than the entry.
    let text = "";
    if (!seen.has(r.patient.id)) {
      seen.add(r.patient.id);
      text += entry(fhirPatient(r, context));
    }
    const parts = resultParts(r, context, progression?.analysis);
    if (warn) for (const gap of fhirGaps(r)) warn(r, gap);
    const shared = sharedJson(parts);
    text += (count++ === 0 ? "" : ",\n") + reportJson(r, context, parts, shared, pdf ? await pdf(r, patientRecords) : null, type);
    for (const o of parts.observations) text += (count++ === 0 ? "" : ",\n") + observationJson(o, shared, type);
    await sink.write(text);
  });
  return {
    async write(r) {
      await open();
      await series.add(r);
    },
    async end() {
      await open();
      await series.flush();
      await sink.write("\n]}\n");
      await sink.close();
    },
  };
}

// Reports and observations are all but the patients of a bundle (nine entries a result), and mostly constant text: their
// entries are printed from constant parts, printed once (per observation definition; per organisation and pattern-eye
// label for reports), and the result's few varying values, not built as objects and stringified. The text is what
// JSON.stringify(bundleEntry(fhirReport(...) or fhirObservation(o, parts), type)) prints (the character-for-character
// test in tests/cli/export-fhir.test.ts): a third of the FHIR export's time went to those objects.

/** A result's parts as JSON text, shared by its observations. */
interface SharedJson {
  readonly subject: string;
  readonly effective: string;
  readonly bodySite: string;
}
const sharedJson = (parts: ResultParts): SharedJson => ({
  subject: JSON.stringify(parts.subject),
  effective: JSON.stringify(parts.effective),
  bodySite: JSON.stringify(parts.bodySite),
});

/** Per definition: its members from meta to code, without the braces. */
const constantParts = new Map<ObservationDefinition, string>();
const constantPart = (d: ObservationDefinition) => {
  let text = constantParts.get(d);
  if (text === undefined) {
    const members = {
      ...(d.profiled ? { meta: { profile: [profiles.observation] } } : {}),
      status: "final",
      category: observationCategory,
      code: { coding: [d.code], text: d.code.display },
    };
    constantParts.set(d, (text = JSON.stringify(members).slice(1, -1)));
  }
  return text;
};

/** A report's members from meta to code, split around the identifier's value (the result's id). */
const reportParts = new Map<string, readonly [string, string]>();
const reportPart = (organisationId: string, label: string) => {
  const key = `${organisationId}\n${label}`;
  let part = reportParts.get(key);
  if (part === undefined) {
    const before = `"meta":${JSON.stringify({ profile: [profiles.report] })},"identifier":[{"system":${JSON.stringify(resultIdSystem(organisationId))},"value":`;
    const after = `}],"status":"final","category":${JSON.stringify(reportCategory)},"code":${JSON.stringify(reportCode(label))}`;
    reportParts.set(key, (part = [before, after]));
  }
  return part;
};

function reportJson(
  r: ExportRecord,
  context: ExportContext,
  parts: ResultParts,
  shared: SharedJson,
  pdf: Uint8Array | null,
  type: BundleType,
): string {
  const url = fullUrl("DiagnosticReport", r.test.id);
  const id = idOf(url);
  const label = reportLabel(r);
  const [before, after] = reportPart(context.organisation.id, label);
  let results = "";
  for (const o of parts.observations) results += `${results === "" ? "" : ","}{"reference":"${o.fullUrl}"}`;
  const resource = `{"resourceType":"DiagnosticReport","id":"${id}",${before}${JSON.stringify(r.test.id)}${after},"subject":${shared.subject},"effectiveDateTime":${shared.effective},"issued":${shared.effective},"result":[${results}],"conclusion":${JSON.stringify(conclusionOf(r))}${pdf ? `,"presentedForm":${JSON.stringify(presentedForm(pdf, label))}` : ""}}`;
  return type === "collection"
    ? `{"fullUrl":"${url}","resource":${resource}}`
    : `{"fullUrl":"${url}","resource":${resource},"request":{"method":"PUT","url":"DiagnosticReport/${id}"}}`;
}

function observationJson(o: ObservationOf, shared: SharedJson, type: BundleType): string {
  const id = idOf(o.fullUrl); // urn:uuid: and hex digits: nothing to escape
  const resource = `{"resourceType":"Observation","id":"${id}",${constantPart(o.definition)},"subject":${shared.subject},"effectiveDateTime":${shared.effective},${JSON.stringify(o.value).slice(1, -1)},"bodySite":${shared.bodySite}}`;
  return type === "collection"
    ? `{"fullUrl":"${o.fullUrl}","resource":${resource}}`
    : `{"fullUrl":"${o.fullUrl}","resource":${resource},"request":{"method":"PUT","url":"Observation/${id}"}}`;
}
