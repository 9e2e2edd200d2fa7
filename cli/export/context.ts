import type { Language } from "../../core/model/enums.ts";
import { defaultPatientIdSystem } from "../../adapters/interchange/identifier-systems.ts";

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
