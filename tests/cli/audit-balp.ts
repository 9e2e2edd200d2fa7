// IHE BALP's profiles (Basic Audit Log Patterns 1.1, github.com/IHE/ITI.BasicAudit input/fsh: PatientCreate.fsh,
// PatientRead.fsh, PatientUpdate.fsh, PatientDelete.fsh, PatientQuery.fsh) written out as checks of an AuditEvent
// that claims one, as fhir-validation.ts does for the Eye Care IG: structural validation against the profiles'
// differentials (no FHIR validator that runs here loads the IG). medplum's R4 validation runs beside it.

type Json = Record<string, any>;

const BALP = "https://profiles.ihe.net/ITI/BALP/StructureDefinition/IHE.BasicAudit.";
const DCM = "http://dicom.nema.org/resources/ontology/DCM";
const PARTICIPATION = "http://terminology.hl7.org/CodeSystem/v3-ParticipationType";

interface Pattern {
  readonly interaction: string;
  readonly action: string;
  /** [system, code] of the client's and the server's agent type. */
  readonly client: readonly [string, string];
  readonly server: readonly [string, string];
  /** The user's agent type codes allowed (v3-ParticipationType). */
  readonly user: readonly string[];
}

const SOURCE = [DCM, "110153"] as const;
const DESTINATION = [DCM, "110152"] as const;
const DATA_SOURCES = ["AUT", "INF", "CST"];
const patterns: Record<string, Pattern> = {
  Create: { interaction: "create", action: "C", client: SOURCE, server: DESTINATION, user: DATA_SOURCES },
  Read: { interaction: "read", action: "R", client: DESTINATION, server: SOURCE, user: ["IRCP"] },
  Update: { interaction: "update", action: "U", client: SOURCE, server: DESTINATION, user: DATA_SOURCES },
  Delete: {
    interaction: "delete",
    action: "D",
    client: [DCM, "110150"],
    server: ["http://terminology.hl7.org/CodeSystem/provenance-participant-type", "custodian"],
    user: DATA_SOURCES,
  },
  Query: { interaction: "search-type", action: "E", client: SOURCE, server: DESTINATION, user: ["IRCP"] },
};

const has = (c: Json | undefined, system: string, code: string) =>
  (c?.coding ?? [c]).some((x: Json) => x?.system === system && x?.code === code);

/** Problems with an AuditEvent against the BALP profile it claims (none claimed: none checked). */
export function balpIssues(event: Json): string[] {
  const claimed = (event.meta?.profile ?? []).find((p: string) => p.startsWith(BALP)) as string | undefined;
  if (!claimed) return [];
  const name = claimed.slice(BALP.length);
  const withPatient = name.startsWith("Patient");
  const pattern = patterns[withPatient ? name.slice("Patient".length) : name];
  if (!pattern) return [`unknown BALP profile ${name}`];
  const out: string[] = [];
  if (!has(event.type, "http://terminology.hl7.org/CodeSystem/audit-event-type", "rest")) out.push("type: not rest");
  if (!(event.subtype ?? []).some((s: Json) => s.system === "http://hl7.org/fhir/restful-interaction" && s.code === pattern.interaction))
    out.push(`subtype: no restful-interaction#${pattern.interaction}`);
  if (event.action !== pattern.action) out.push(`action: ${event.action}, must be ${pattern.action}`);
  if (!event.recorded) out.push("recorded: missing");
  if (event.outcome !== "0") out.push(`outcome: ${event.outcome}, must be 0 (success)`);
  const agents: Json[] = event.agent ?? [];
  for (const [slice, [system, code]] of [
    ["client", pattern.client],
    ["server", pattern.server],
  ] as const) {
    const found = agents.filter((a) => has(a.type, system, code));
    if (found.length !== 1) out.push(`agent[${slice}] (${code}): ${found.length}, must be 1`);
    else if (!found[0]!.who || !found[0]!.network?.address) out.push(`agent[${slice}]: who and network are required`);
  }
  for (const user of agents.filter((a) => (a.type?.coding ?? []).some((c: Json) => c.system === PARTICIPATION))) {
    if (!pattern.user.some((code) => has(user.type, PARTICIPATION, code))) out.push(`agent[user]: type not in ${pattern.user.join("/")}`);
    if (user.requestor !== true) out.push("agent[user]: requestor must be true");
    if (user.network) out.push("agent[user]: users are not network devices (network 0..0)");
    if (!user.who) out.push("agent[user]: who is required");
  }
  if (agents.length < 2) out.push("agent: min 2");
  const entities: Json[] = event.entity ?? [];
  const patients = entities.filter(
    (e) =>
      has(e.type, "http://terminology.hl7.org/CodeSystem/audit-entity-type", "1") &&
      has(e.role, "http://terminology.hl7.org/CodeSystem/object-role", "1"),
  );
  if (withPatient) {
    if (patients.length !== 1) out.push(`entity[patient]: ${patients.length}, must be 1`);
    else if (!/^Patient\/[^/]+$/.test(patients[0]!.what?.reference ?? "")) out.push("entity[patient].what: must reference a Patient");
  }
  const objects = entities.filter((e) => has(e.type, "http://terminology.hl7.org/CodeSystem/audit-entity-type", "2"));
  if (pattern.interaction === "search-type") {
    const queries = objects.filter((e) => has(e.role, "http://terminology.hl7.org/CodeSystem/object-role", "24"));
    if (queries.length !== 1) out.push(`entity[query]: ${queries.length}, must be 1`);
    else if (!queries[0]!.query || queries[0]!.what) out.push("entity[query]: query is required, what is not allowed");
  } else {
    const data = objects.filter((e) =>
      ["4", "3", "20"].some((code) => has(e.role, "http://terminology.hl7.org/CodeSystem/object-role", code)),
    );
    if (data.length !== 1) out.push(`entity[data]: ${data.length}, must be 1`);
    else if (!data[0]!.what) out.push("entity[data].what: required");
  }
  if (entities.length < (withPatient ? 2 : 1)) out.push(`entity: min ${withPatient ? 2 : 1}`);
  return out;
}
