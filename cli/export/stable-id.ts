import { createHash } from "node:crypto";

// Identifiers derived from our own ids, so exporting the same result twice gives the same FHIR fullUrls and DICOM UIDs
// (receivers de-duplicate on them). Name-based UUID in the manner of RFC 4122 version 5 (SHA-1 over a name).

const NAMESPACE = "isopter";

export function stableUuid(name: string): string {
  const h = createHash("sha1").update(`${NAMESPACE}:${name}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50; // version 5
  h[8] = (h[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** A DICOM UID under the 2.25 root: the UUID read as one decimal integer (PS3.5 B.2), at most 64 characters. */
export function dicomUid(name: string): string {
  return `2.25.${BigInt(`0x${stableUuid(name).replace(/-/g, "")}`).toString(10)}`;
}
