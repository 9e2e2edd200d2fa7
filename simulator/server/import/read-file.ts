import { readVisualFieldsCsv } from "../../../core/import/csv.ts";
import { readFhirBundle } from "../../../core/import/fhir.ts";
import { type FileReading, unreadable } from "../../../core/import/imported-field.ts";
import { readOpv } from "../../../core/import/opv.ts";
import type { ImportFile } from "../../../core/model/import.ts";
import type { ImportFormat } from "../../../core/model/result-source.ts";
import { readPart10, sopInstanceUidOf } from "./part10.ts";

// One uploaded file to the fields it holds, whatever its format: the bytes say which (a DICOM Part 10 preamble and
// "DICM", else JSON, else a CSV). The readers in core/import do the rest; a file no reader takes is refused whole.

export interface ReadFile {
  readonly format: ImportFormat | null;
  readonly reading: FileReading;
}

const isPart10 = (bytes: Buffer) => bytes.length > 132 && bytes.toString("latin1", 128, 132) === "DICM";

export function readImportFile(
  file: ImportFile,
  importedAt: string,
  timeZone: string,
  uniqueIdOf: (csvId: string) => string | null,
): ReadFile {
  const bytes = file.encoding === "base64" ? Buffer.from(file.content, "base64") : Buffer.from(file.content, "utf8");
  if (bytes.length === 0) return { format: null, reading: unreadable("the file is empty") };
  if (isPart10(bytes)) {
    let ds: Record<string, unknown>;
    try {
      ds = readPart10(bytes);
    } catch (e) {
      return { format: "dicom-opv", reading: unreadable(`a corrupt DICOM file (${(e as Error).message})`) };
    }
    return { format: "dicom-opv", reading: readOpv(ds, file.name, importedAt, timeZone) };
  }
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  const start = text.trimStart()[0];
  if (start === "{" || start === "[") {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      return { format: "fhir", reading: unreadable(`not valid JSON (${(e as Error).message})`) };
    }
    return { format: "fhir", reading: readFhirBundle(json, file.name, importedAt) };
  }
  if (/^\s*"?id"?\s*,/.test(text))
    return { format: "visualfields-csv", reading: readVisualFieldsCsv(text, file.name, importedAt, uniqueIdOf) };
  return {
    format: null,
    reading: unreadable("not a file Isopter imports: neither DICOM (Part 10), a FHIR Bundle (JSON) nor a visualFields CSV"),
  };
}

/**
 * A DICOM file's SOP Instance UID from its first few kilobytes, without reading the rest (it comes early in every
 * instance: a folder imported again is answered from the keys alone); null for any other file or when it is not there.
 */
export function dicomInstanceUid(file: ImportFile): string | null {
  if (file.encoding !== "base64") return null;
  return sopInstanceUidOf(Buffer.from(file.content.slice(0, 16_384), "base64"));
}
