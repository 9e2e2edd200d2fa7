import type { AuditEntry } from "./audit.ts";

// An audit entry as an FHIR R4 AuditEvent (http://hl7.org/fhir/R4/auditevent.html). The type is the DICOM audit
// vocabulary's: 110114 "User Authentication" for logins and logouts, else the FHIR "rest" interaction; the action is
// C/R/U/D/E from the call's name; the outcome 0 (success), 4 (the caller's failure, a 4xx) or 8 (the server's).

const DCM = "http://dicom.nema.org/resources/ontology/DCM";
const REST = "http://terminology.hl7.org/CodeSystem/audit-event-type";

const actionOf = (action: string): "C" | "R" | "U" | "D" | "E" => {
  const verb = action.split(".").slice(1).join(".");
  if (/^(register|create|invite|signup|copy|enrol|standalone|insertExaminations|registerWithExaminations)/.test(verb)) return "C";
  if (/^(delete|trash)/.test(verb)) return "D";
  if (/^(update|restore|reenrol|revoke|dragAndDrop|reorder|upload|confirm)/.test(verb) || action === "passwordChange") return "U";
  if (/^(get|all|recent|search|page|profile|current|allTrashed|standaloneData|enrolments)/.test(verb)) return "R";
  return "E";
};

export const toFhirAuditEvent = (e: AuditEntry, organisationId: string) => {
  const session = e.action === "login" || e.action === "logout";
  return {
    resourceType: "AuditEvent" as const,
    id: String(e.id),
    type: session
      ? { system: DCM, code: "110114", display: "User Authentication" }
      : { system: REST, code: "rest", display: "RESTful Operation" },
    subtype: [{ system: "urn:isopter:action", code: e.action }],
    action: actionOf(e.action),
    recorded: e.at,
    outcome: e.outcome === "success" ? "0" : e.outcome === "internal_error" || e.outcome === "unavailable" ? "8" : "4",
    ...(e.outcome === "success" ? {} : { outcomeDesc: e.outcome }),
    agent: [
      {
        type: {
          coding: [
            {
              system: DCM,
              code: e.actorKind === "headset" ? "110150" : "110153",
              display: e.actorKind === "headset" ? "Application" : "Source Role ID",
            },
          ],
        },
        who: e.actorId
          ? {
              identifier: { system: e.actorKind === "headset" ? "urn:isopter:device-sn" : "urn:isopter:user", value: e.actorId },
              ...(e.actorName ? { display: e.actorName } : {}),
            }
          : { display: e.actorName ?? "unknown" },
        requestor: true,
        ...(e.address ? { network: { address: e.address, type: "2" as const } } : {}),
      },
    ],
    source: {
      site: organisationId,
      observer: { display: "Isopter server" },
      type: [{ system: "http://terminology.hl7.org/CodeSystem/security-source-type", code: "4", display: "Application Server" }],
    },
    entity: [
      ...(e.patientId
        ? [
            {
              what: { reference: `Patient/${e.patientId}` },
              type: { system: "http://terminology.hl7.org/CodeSystem/audit-entity-type", code: "1", display: "Person" },
            },
          ]
        : []),
      ...(e.recordId && e.recordType !== "patient"
        ? [
            {
              what: { identifier: { system: `urn:isopter:${e.recordType ?? "record"}`, value: e.recordId } },
              type: { system: "http://terminology.hl7.org/CodeSystem/audit-entity-type", code: "2", display: "System Object" },
            },
          ]
        : []),
    ],
  };
};
