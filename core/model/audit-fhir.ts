import type { AuditEntry } from "./audit.ts";

// An audit entry as an FHIR R4 AuditEvent (http://hl7.org/fhir/R4/auditevent.html) following IHE's Basic Audit Log
// Patterns (BALP 1.1, profiles.ihe.net/ITI/BALP; the profiles' FSH in github.com/IHE/ITI.BasicAudit input/fsh):
// - type "rest", the subtype the FHIR RESTful interaction (create, read, update, delete, search-type), the action
//   C/R/U/D, or E for a query; our call's name is a second subtype (urn:isopter:action).
// - agents: the client (its network address), the server, and the user who asked (requestor). Read puts the client as
//   Destination Role ID and the server as Source Role ID, create/update/query the other way round, delete names the
//   client Application and the server Custodian; the user is an information recipient (IRCP) for reads and queries,
//   the author (AUT) for changes.
// - entities: the patient (type 1 Person, role 1 Patient, Patient/<id>) whenever the event concerns one; the record
//   acted on (type 2 System Object, role 4 Domain Resource) for create/read/update/delete; for a query the query
//   itself (role 24 Query). BALP keeps a query's raw request base64-encoded; the trail keeps the call's name only (it
//   stores no request bodies), so that name is what is encoded: a gap we fill, said here.
// - a successful event claims the BALP profile it follows (meta.profile); failures follow no BALP profile ("failures
//   are recorded differently") and carry outcome 4 (the caller's failure) or 8 (the server's) with the error type.
// Logins and logouts are DICOM's 110114 User Authentication with 110122 Login / 110123 Logout (BALP has no pattern).

const DCM = "http://dicom.nema.org/resources/ontology/DCM";
const REST_TYPE = { system: "http://terminology.hl7.org/CodeSystem/audit-event-type", code: "rest", display: "Restful Operation" };
const INTERACTION = "http://hl7.org/fhir/restful-interaction";
const PARTICIPATION = "http://terminology.hl7.org/CodeSystem/v3-ParticipationType";
const ENTITY_TYPE = "http://terminology.hl7.org/CodeSystem/audit-entity-type";
const OBJECT_ROLE = "http://terminology.hl7.org/CodeSystem/object-role";
export const BALP = "https://profiles.ihe.net/ITI/BALP/StructureDefinition/IHE.BasicAudit.";

export type AuditPattern = "create" | "read" | "update" | "delete" | "query" | "operation" | "login" | "logout";

/** The BALP pattern of a call, from its name (area.verb). */
export const patternOf = (action: string): AuditPattern => {
  // Single sign-on's sign-ins (the call and the event naming its organisation and reason) and its logout (issue 33).
  if (action === "login" || action === "sso.complete" || action === "sso.signIn") return "login";
  // The second step of a password login (issue 33 item 2): its code, or its enrolment's first code, signs in.
  if (action === "secondFactor.signIn" || action === "secondFactor.signInConfirm") return "login";
  if (action === "logout" || action === "sso.logout") return "logout";
  const verb = action.split(".").slice(1).join(".");
  if (/^(register|create|invite|signup|copy|enrol|standalone|insertExaminations|registerWithExaminations|import)/.test(verb))
    return "create";
  if (/^(delete|trash)/.test(verb)) return "delete";
  if (/^(update|restore|reenrol|revoke|dragAndDrop|reorder|upload|confirm)/.test(verb) || action === "passwordChange") return "update";
  if (/^(all|search|page|recent|allTrashed|enrolments)/.test(verb)) return "query";
  if (/^(get|profile|current|standaloneData)/.test(verb)) return "read";
  return "operation";
};

const ACTION: Record<AuditPattern, "C" | "R" | "U" | "D" | "E"> = {
  create: "C",
  read: "R",
  update: "U",
  delete: "D",
  query: "E",
  operation: "E",
  login: "E",
  logout: "E",
};
const INTERACTION_CODE: Partial<Record<AuditPattern, string>> = {
  create: "create",
  read: "read",
  update: "update",
  delete: "delete",
  query: "search-type",
  operation: "operation",
};
const PROFILE: Partial<Record<AuditPattern, string>> = {
  create: "Create",
  read: "Read",
  update: "Update",
  delete: "Delete",
  query: "Query",
};

const coding = (system: string, code: string, display: string) => ({ system, code, display });

/** The two system agents' types by pattern: [client, server]. */
const systemRoles = (p: AuditPattern) =>
  p === "read"
    ? [coding(DCM, "110152", "Destination Role ID"), coding(DCM, "110153", "Source Role ID")]
    : p === "delete"
      ? [
          coding(DCM, "110150", "Application"),
          coding("http://terminology.hl7.org/CodeSystem/provenance-participant-type", "custodian", "Custodian"),
        ]
      : [coding(DCM, "110153", "Source Role ID"), coding(DCM, "110152", "Destination Role ID")];

/** Where the server is reached: its URL (network type 5, URI) and a name for it. */
export interface AuditServer {
  readonly url: string;
}

const base64 = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
};

export const toFhirAuditEvent = (e: AuditEntry, organisationId: string, server: AuditServer = { url: "urn:isopter:server" }) => {
  const pattern = patternOf(e.action);
  const rest = pattern !== "login" && pattern !== "logout";
  const success = e.outcome === "success";
  const [clientRole, serverRole] = systemRoles(pattern);
  const person = e.actorKind === "user" || (e.actorKind === "anonymous" && e.actorName !== null);
  const patient = e.patientId
    ? [
        {
          what: { reference: `Patient/${e.patientId}` },
          type: coding(ENTITY_TYPE, "1", "Person"),
          role: coding(OBJECT_ROLE, "1", "Patient"),
        },
      ]
    : [];
  const record =
    e.recordType === "patient" && e.recordId
      ? { reference: `Patient/${e.recordId}` }
      : e.recordId
        ? { identifier: { system: `urn:isopter:${e.recordType ?? "record"}`, value: e.recordId } }
        : { identifier: { system: "urn:isopter:call", value: e.action } };
  const data =
    pattern === "query"
      ? [
          {
            type: coding(ENTITY_TYPE, "2", "System Object"),
            role: coding(OBJECT_ROLE, "24", "Query"),
            description: e.action,
            query: base64(e.action),
          },
        ]
      : rest
        ? [{ what: record, type: coding(ENTITY_TYPE, "2", "System Object"), role: coding(OBJECT_ROLE, "4", "Domain Resource") }]
        : [];
  const profile = success && PROFILE[pattern] && e.address ? `${BALP}${e.patientId ? "Patient" : ""}${PROFILE[pattern]}` : undefined;
  return {
    resourceType: "AuditEvent" as const,
    id: String(e.id),
    ...(profile ? { meta: { profile: [profile] } } : {}),
    type: rest ? REST_TYPE : coding(DCM, "110114", "User Authentication"),
    subtype: [
      rest
        ? coding(INTERACTION, INTERACTION_CODE[pattern]!, INTERACTION_CODE[pattern]!)
        : pattern === "login"
          ? coding(DCM, "110122", "Login")
          : coding(DCM, "110123", "Logout"),
      { system: "urn:isopter:action", code: e.action },
    ],
    action: ACTION[pattern],
    recorded: e.at,
    outcome: success ? ("0" as const) : e.outcome === "internal_error" || e.outcome === "unavailable" ? ("8" as const) : ("4" as const),
    ...(success ? {} : { outcomeDesc: e.outcome }),
    agent: [
      ...(person
        ? [
            {
              type: {
                coding: [
                  pattern === "read" || pattern === "query"
                    ? coding(PARTICIPATION, "IRCP", "information recipient")
                    : coding(PARTICIPATION, "AUT", "author (originator)"),
                ],
              },
              who: e.actorId
                ? { identifier: { system: "urn:isopter:user", value: e.actorId }, ...(e.actorName ? { display: e.actorName } : {}) }
                : { display: e.actorName ?? "unknown" },
              ...(e.actorName ? { name: e.actorName } : {}),
              requestor: true,
            },
          ]
        : []),
      {
        type: { coding: [clientRole] },
        who:
          e.actorKind === "headset" && e.actorId
            ? { identifier: { system: "urn:isopter:device-sn", value: e.actorId }, display: e.actorName ?? e.actorId }
            : { display: e.address ? `client at ${e.address}` : "client" },
        requestor: !person,
        ...(e.address ? { network: { address: e.address, type: "2" as const } } : {}),
      },
      {
        type: { coding: [serverRole] },
        who: { identifier: { system: "urn:ietf:rfc:3986", value: server.url }, display: "Isopter server" },
        requestor: false,
        network: { address: server.url, type: "5" as const },
      },
    ],
    source: {
      site: organisationId,
      observer: { display: "Isopter server" },
      type: [coding("http://terminology.hl7.org/CodeSystem/security-source-type", "4", "Application Server")],
    },
    entity: [...patient, ...data],
  };
};

export type FhirAuditEvent = ReturnType<typeof toFhirAuditEvent>;
