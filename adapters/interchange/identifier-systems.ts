import { dicomUid } from "./stable-id.ts";

// The identifier systems an organisation's exports name, derived from its id: the export writes them, the import
// recognises them as the organisation's own (a patient ID under them is one of its record numbers).

/**
 * The organisation's own identifier namespace when it names none: an OID under 2.25 (ISO/IEC 9834-8, a UUID read as a
 * decimal integer), derived from the organisation's id, so it is the same on every export and unique to the clinic.
 */
export const organisationOid = (organisationId: string): string => dicomUid(`organisation:${organisationId}`);

export const defaultPatientIdSystem = (organisationId: string): string => `urn:oid:${organisationOid(organisationId)}.1`;
/** Identifier.system of the results (measurement and examination ids). */
export const resultIdSystem = (organisationId: string): string => `urn:oid:${organisationOid(organisationId)}.2`;
