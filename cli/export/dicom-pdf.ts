import { clinicTime } from "../../core/model/clinic-time.ts";
import { patternLabel } from "../../core/model/enums.ts";
import type { ExportContext } from "./context.ts";
import { commonAttributes, TRANSFER_SYNTAX, type DicomWarning } from "./dicom.ts";
import { perimetryReport } from "../../core/dicom/codes.ts";
import { eyeCode, type ExportRecord } from "./record.ts";
import { dicomUid } from "../../adapters/interchange/stable-id.ts";

// The printed page of a result as an Encapsulated PDF instance (PS3.3 A.45.1), in the OPV's study (the visit) and a
// series of its own, so a PACS shows the page beside the measurements.

export const ENCAPSULATED_PDF_SOP_CLASS_UID = "1.2.840.10008.5.1.4.1.1.104.1";

export function pdfDataset(
  r: ExportRecord,
  pdf: Uint8Array,
  context: ExportContext,
  warn: DicomWarning = () => undefined,
): Record<string, unknown> {
  const { date, time } = clinicTime(r.result.takenAt, context.timeZone);
  const uid = (kind: string) => dicomUid(`${kind}:${r.test.id}`);
  // OB must have an even length: a PDF may end in a single padding byte.
  const bytes = pdf.length % 2 === 0 ? pdf : Buffer.concat([Buffer.from(pdf), Buffer.from([0])]);
  return {
    _meta: { TransferSyntaxUID: { Value: [TRANSFER_SYNTAX] } },
    ...commonAttributes(r, context, warn),
    SOPClassUID: ENCAPSULATED_PDF_SOP_CLASS_UID,
    SOPInstanceUID: uid("pdf-instance"),
    // Encapsulated Document Series
    Modality: "DOC",
    SeriesInstanceUID: uid("pdf-series"),
    SeriesNumber: 100 + (r.result.eye === 1 ? 1 : 0),
    SeriesDescription: "Perimetry report",
    // SC Equipment: a workstation's synthetic document
    ConversionType: "WSD",
    // Encapsulated Document
    InstanceNumber: 1,
    ContentDate: da(date),
    ContentTime: tm(time),
    AcquisitionDateTime: `${da(date)}${tm(time)}`,
    BurnedInAnnotation: "YES",
    DocumentTitle: `Perimetry ${patternLabel[r.result.pattern]} ${eyeCode(r.result.eye)} ${date}`,
    ConceptNameCodeSequence: [{ ...perimetryReport }],
    MIMETypeOfEncapsulatedDocument: "application/pdf",
    EncapsulatedDocument: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    EncapsulatedDocumentLength: pdf.length,
  };
}

const da = (isoDate: string) => isoDate.replace(/-/g, "");
const tm = (t: string) => t.replace(/:/g, "");
