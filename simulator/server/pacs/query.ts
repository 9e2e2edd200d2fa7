import type { DicomNode } from "../../../core/model/dicom-network.ts";
import { associate, dimse, type Emitter, OPV_SOP_CLASS_UID, PENDING, type Response } from "./association.ts";

// The patient's OPV instances in the PACS (Study Root Query/Retrieve, C-FIND), asked the way every PACS answers, level
// by level (PS3.4 C.4.1.2.1, hierarchical search): the patient's studies by Patient ID, their OPV series (Modality
// OPV), those series' instances with their SOP Class UID, of which only OPV (1.2.840.10008.5.1.4.1.1.80.1) is kept.
// Three associations, each with all of its level's requests. A PACS matches some keys loosely (a Patient ID's case, a
// wildcard): every answer is checked again here, so only the patient's exact ID and only OPV instances come back.

export interface PacsInstance {
  readonly studyInstanceUid: string;
  readonly seriesInstanceUid: string;
  readonly sopInstanceUid: string;
  readonly sopClassUid: string;
}

export interface QueryLimits {
  readonly timeoutMs: number;
  readonly limitMs: number;
}

/** A string attribute of a C-FIND answer (dcmjs naturalizes one value as a string, several as an array). */
const text = (elements: Record<string, unknown>, keyword: string): string | null => {
  const v = elements[keyword];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === "string" && first.trim() !== "" ? first.trim() : null;
};
const texts = (elements: Record<string, unknown>, keyword: string): string[] | null => {
  const v = elements[keyword];
  if (v === undefined || v === null || v === "") return null;
  return (Array.isArray(v) ? v : String(v).split("\\")).map((x) => String(x).trim()).filter(Boolean);
};

/** Why a patient's ID cannot be a C-FIND key (PS3.4 C.2.2.2: `*` and `?` are wildcards, `\` separates values; LO). */
export function patientIdProblem(id: string): string | null {
  if (id.trim() === "") return "it is empty";
  if (/[*?\\]/.test(id)) return "it holds *, ? or \\, which a C-FIND reads as a wildcard or a list";
  if (id.length > 64) return "it is longer than the 64 characters of a DICOM Patient ID";
  return null;
}

/** Every answer's dataset of one request, on one association per level. */
async function findAll(
  node: DicomNode,
  requests: ReadonlyArray<{ key: string; make: () => unknown }>,
  what: string,
  limits: QueryLimits,
): Promise<Array<{ key: string; elements: Record<string, unknown> }>> {
  if (requests.length === 0) return [];
  const out: Array<{ key: string; elements: Record<string, unknown> }> = [];
  await associate(
    node,
    requests.map(({ key, make }) => ({
      request: make() as Emitter,
      onResponse: (r: Response) => {
        const elements = r.getDataset()?.getElements();
        if (elements && PENDING.has(r.getStatus())) out.push({ key, elements });
      },
    })),
    { what, timeoutMs: limits.timeoutMs, limitMs: limits.limitMs },
  );
  return out;
}

export async function findOpvInstances(node: DicomNode, patientId: string, limits: QueryLimits): Promise<PacsInstance[]> {
  const { requests } = await dimse();
  const { CFindRequest } = requests;
  const studies = (
    await findAll(
      node,
      [{ key: "", make: () => CFindRequest.createStudyFindRequest({ PatientID: patientId }) }],
      `the C-FIND for patient ${patientId}'s studies`,
      limits,
    )
  ).filter(({ elements }) => {
    const id = text(elements, "PatientID");
    // A study that says which modalities it holds and names no OPV has no visual field in it.
    const modalities = texts(elements, "ModalitiesInStudy");
    return (id === null || id === patientId) && (modalities === null || modalities.includes("OPV"));
  });
  const studyUids = [...new Set(studies.map((s) => text(s.elements, "StudyInstanceUID")).filter((u): u is string => u !== null))];

  const series = await findAll(
    node,
    studyUids.map((study) => ({
      key: study,
      make: () => CFindRequest.createSeriesFindRequest({ StudyInstanceUID: study, Modality: "OPV" }),
    })),
    `the C-FIND for the OPV series of patient ${patientId}'s ${studyUids.length} studies`,
    limits,
  );
  const seriesKeys = [
    ...new Map(
      series
        .filter(({ elements }) => (text(elements, "Modality") ?? "OPV") === "OPV")
        .map(({ key, elements }) => [text(elements, "SeriesInstanceUID"), key] as const)
        .filter((s): s is readonly [string, string] => s[0] !== null),
    ),
  ];

  const images = await findAll(
    node,
    seriesKeys.map(([seriesUid, studyUid]) => ({
      key: `${studyUid}|${seriesUid}`,
      make: () =>
        CFindRequest.createImageFindRequest({ StudyInstanceUID: studyUid, SeriesInstanceUID: seriesUid, SOPClassUID: OPV_SOP_CLASS_UID }),
    })),
    `the C-FIND for the instances of patient ${patientId}'s ${seriesKeys.length} OPV series`,
    limits,
  );
  const found = new Map<string, PacsInstance>();
  for (const { key, elements } of images) {
    const [studyInstanceUid, seriesInstanceUid] = key.split("|") as [string, string];
    const sopInstanceUid = text(elements, "SOPInstanceUID");
    const sopClassUid = text(elements, "SOPClassUID") ?? OPV_SOP_CLASS_UID;
    if (sopInstanceUid === null || sopClassUid !== OPV_SOP_CLASS_UID) continue;
    found.set(sopInstanceUid, { studyInstanceUid, seriesInstanceUid, sopInstanceUid, sopClassUid });
  }
  return [...found.values()];
}
