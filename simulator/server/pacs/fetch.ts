import type { PacsFetchReport, PacsSettings } from "../../../core/model/dicom-network.ts";
import type { ImportFileReport } from "../../../core/model/import.ts";
import { IMPORT_FILES_MAX } from "../../../core/model/import.ts";
import type { Patient } from "../../../core/model/patient.ts";
import type { ServerContext } from "../context.ts";
import { importedKeys, importFiles, type ImportTarget, knownInstances } from "../import/import-file.ts";
import { readImportFile } from "../import/read-file.ts";
import { findOpvInstances, type PacsInstance } from "./query.ts";
import { type RetrieveLimits, retrieveByGet, retrieveByMove } from "./retrieve.ts";

// Priors from the PACS (issue 29 §3): the patient's OPV instances found (query.ts), those already imported (the SOP
// Instance UID is the import's key) left in the PACS and reported as duplicates, the rest retrieved (retrieve.ts) and
// imported as results/import does on the patient's page: read as uploaded files, matched, every field required to be
// this patient's (a field of another patient is refused), each file one transaction, a dry run writing nothing (it
// still retrieves, to say what the import would do). The report lists every instance found, in the PACS's order.

export interface FetchLimits extends RetrieveLimits {
  /** More OPV instances than this for one patient and the fetch is refused (the query matched far too much). */
  readonly maxInstances: number;
}

export const defaultFetchLimits: FetchLimits = {
  timeoutMs: 30_000,
  limitMs: 5 * 60_000,
  maxInstanceBytes: 32 * 1048576,
  maxTotalBytes: 256 * 1048576,
  maxInstances: 5_000,
};

export class TooManyInstances extends Error {
  override readonly name = "TooManyInstances";
}

export interface FetchTarget {
  readonly organisationId: string;
  /** The organisation's own issuers of patient IDs, as results/import takes them. */
  readonly ownIssuers: readonly string[];
  readonly patient: Patient;
  readonly dryRun: boolean;
  readonly now: string;
  /** Where times without an offset from UTC were taken: the server's zone (it stands in the clinic). */
  readonly timeZone: string;
}

/** The name an instance goes by in the report and the stored result's source: the PACS's AE title and its UID. */
const instanceName = (aet: string, i: PacsInstance) => `${aet}/${i.sopInstanceUid}`;

export async function fetchPriors(
  ctx: ServerContext,
  target: FetchTarget,
  pacs: PacsSettings,
  limits: FetchLimits = defaultFetchLimits,
): Promise<PacsFetchReport> {
  const { node } = pacs;
  if (pacs.retrieve === "move" && pacs.storePort === null)
    throw new MissingStorePort("Retrieval by C-MOVE needs Isopter's store port: set one in the DICOM settings, or retrieve by C-GET");
  const found = await findOpvInstances(node, target.patient.uniqueId, limits);
  if (found.length > limits.maxInstances)
    throw new TooManyInstances(
      `The PACS lists ${found.length} OPV instances for patient ID ${target.patient.uniqueId}, more than the ${limits.maxInstances} one fetch takes`,
    );
  const known = await importedKeys(
    ctx.db,
    target.organisationId,
    found.map((i) => i.sopInstanceUid),
  );
  const wanted = found.filter((i) => !known.has(i.sopInstanceUid));
  const retrieved =
    pacs.retrieve === "get" ? await retrieveByGet(node, wanted, limits) : await retrieveByMove(node, pacs.storePort!, wanted, limits);

  const reports = new Map<string, ImportFileReport>();
  const duplicates = found.filter((i) => known.has(i.sopInstanceUid));
  const named = await knownInstances(
    ctx.db,
    target.organisationId,
    duplicates.map((i) => ({ name: instanceName(node.calledAeTitle, i), uid: i.sopInstanceUid })),
  );
  duplicates.forEach((i, k) =>
    reports.set(
      i.sopInstanceUid,
      // The key is there but its result is not (deleted for good): still imported before, with nothing to name.
      named[k] ?? {
        file: instanceName(node.calledAeTitle, i),
        format: "dicom-opv",
        action: "duplicate",
        reason: null,
        items: [
          {
            item: `SOP Instance ${i.sopInstanceUid}`,
            action: "duplicate",
            reason: "imported before",
            patient: null,
            measurementId: known.get(i.sopInstanceUid)!,
            takenAt: null,
            eye: null,
            pattern: null,
            device: null,
          },
        ],
      },
    ),
  );
  for (const i of wanted) {
    const problem = retrieved.problems.get(i.sopInstanceUid);
    if (!retrieved.files.has(i.sopInstanceUid))
      reports.set(i.sopInstanceUid, {
        file: instanceName(node.calledAeTitle, i),
        format: "dicom-opv",
        action: "refused",
        reason: problem ?? "the PACS did not send it",
        items: [],
      });
  }

  const importable = wanted.filter((i) => retrieved.files.has(i.sopInstanceUid));
  const target_: ImportTarget = {
    organisationId: target.organisationId,
    ownIssuers: target.ownIssuers,
    patientId: target.patient.id,
    dryRun: target.dryRun,
    now: target.now,
  };
  for (let start = 0; start < importable.length; start += IMPORT_FILES_MAX) {
    const batch = importable.slice(start, start + IMPORT_FILES_MAX).map((i) => {
      const name = instanceName(node.calledAeTitle, i);
      const content = retrieved.files.get(i.sopInstanceUid)!.toString("base64");
      return { instance: i, name, read: readImportFile({ name, encoding: "base64", content }, target.now, target.timeZone, () => null) };
    });
    // Read again just before the import: another fetch or import may have stored some of them meanwhile.
    const keys = batch.flatMap((b) => (b.read.reading.ok ? b.read.reading.fields.map((f) => f.result.source.key) : []));
    const knownNow = await importedKeys(ctx.db, target.organisationId, keys);
    const out = await importFiles(ctx, target_, batch, knownNow);
    batch.forEach((b, k) => reports.set(b.instance.sopInstanceUid, out[k]!));
  }

  return {
    found: found.length,
    imported: { dryRun: target.dryRun, files: found.flatMap((i) => reports.get(i.sopInstanceUid) ?? []) },
  };
}

export class MissingStorePort extends Error {
  override readonly name = "MissingStorePort";
}
