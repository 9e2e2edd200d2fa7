import { hash } from "node:crypto";

// Identifiers derived from our own ids, so exporting the same result twice gives the same FHIR fullUrls and DICOM UIDs
// (receivers de-duplicate on them). Name-based UUID in the manner of RFC 4122 version 5 (SHA-1 over a name).

const NAMESPACE = "isopter";

/** The RFC 4122 variant digit (10xx) for each hex digit's low two bits: index by the digit's value. */
const variantOf: Record<string, string> = {};
for (let v = 0; v < 16; v++) variantOf[v.toString(16)] = ((v & 0x3) | 0x8).toString(16);

export function stableUuid(name: string): string {
  const x = hash("sha1", `${NAMESPACE}:${name}`, "hex"); // one-shot: an export hashes ten names per result
  // Version 5 in the high nibble of byte 6; the RFC 4122 variant (10xx) in the high bits of byte 8.
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-5${x.slice(13, 16)}-${variantOf[x[16]!]}${x.slice(17, 20)}-${x.slice(20, 32)}`;
}

/** A DICOM UID under the 2.25 root: the UUID read as one decimal integer (PS3.5 B.2), at most 64 characters. */
export function dicomUid(name: string): string {
  return `2.25.${BigInt(`0x${stableUuid(name).replace(/-/g, "")}`).toString(10)}`;
}
