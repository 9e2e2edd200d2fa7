import type { Language } from "../../core/model/enums.ts";
import { dicomUid } from "./stable-id.ts";

/**
 * What every clinical format needs beside the record: whose results they are and how the clinic names and times them.
 * The export command fills it from the organisation (organisation/current) and its options; tests build it directly.
 */
export interface ExportContext {
  readonly organisation: { readonly id: string; readonly name: string };
  /** IANA time zone of the clinic: printed, DICOM and FHIR times are its wall clock with the offset from UTC. */
  readonly timeZone: string;
  /** The FHIR Identifier.system of patients' unique ids (the clinic's record numbers). */
  readonly patientIdSystem: string;
  /** The interface language the printed page speaks (PDF, and the PDFs inside DICOM and FHIR). */
  readonly language: Language;
}

/**
 * The organisation's own identifier namespace when it names none: an OID under 2.25 (ISO/IEC 9834-8, a UUID read as a
 * decimal integer), derived from the organisation's id, so it is the same on every export and unique to the clinic.
 */
export const organisationOid = (organisationId: string): string => dicomUid(`organisation:${organisationId}`);

export const defaultPatientIdSystem = (organisationId: string): string => `urn:oid:${organisationOid(organisationId)}.1`;
/** Identifier.system of the results (measurement and examination ids). */
export const resultIdSystem = (organisationId: string): string => `urn:oid:${organisationOid(organisationId)}.2`;

/** The system's own time zone (the CLI's default for --time-zone). */
export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export function exportContext(
  organisation: { id: string; name: string },
  o: { timeZone?: string; patientIdSystem?: string; language?: Language } = {},
): ExportContext {
  return {
    organisation: { id: organisation.id, name: organisation.name },
    timeZone: o.timeZone ?? localTimeZone(),
    patientIdSystem: o.patientIdSystem ?? defaultPatientIdSystem(organisation.id),
    language: o.language ?? "en",
  };
}
