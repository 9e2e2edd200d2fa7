import type { DicomSettings, EchoReport, WorklistReport } from "../model/dicom-network.ts";
import { CacheKey } from "./cache-keys.ts";
import type { FacetContext } from "./facet-context.ts";
import type { Reads } from "./reads.ts";

// The dicom facet (issue 29 §3): the organisation's DICOM network as the settings' "DICOM network" section works it.
// The settings themselves are a read (`client.reads`, dicom.settings), which "Fetch priors" on a patient's page reads
// too; saving them reads them again, so every screen showing them follows. A verification (C-ECHO) of the worklist
// provider or the PACS and a query of the worklist now are one command each.

/** The two peers of the network: the worklist provider and the PACS. */
export type DicomPeer = "worklist" | "pacs";

export interface DicomFacet {
  /** Stores the organisation's worklist provider and PACS (dicom.settingsUpdate), then reads the settings again. Resolves
   * with the settings as stored. Rejects with the ApiError: 400 naming the field (an AE title, host or port the schema
   * refuses), 404 for a headset that is not the organisation's. */
  saveSettings(settings: DicomSettings): Promise<DicomSettings>;
  /** "Test connection": a verification (C-ECHO) of the peer as saved; the answer says whether it answered and how, in
   * the server's words. Rejects with the ApiError (404 when that peer is not set). */
  testConnection(peer: DicomPeer): Promise<EchoReport>;
  /** "Query now": the worklist provider's steps of today for the station (worklist.query). A dry run says per step what
   * would happen and writes nothing; otherwise, once a step was queued, the lanes and the patients' lists are read
   * again. Rejects with the ApiError: 503 `unavailable` when the provider cannot be reached (its message names it), 404
   * when none is set. */
  queryWorklist(options: { readonly dryRun: boolean }): Promise<WorklistReport>;
}

/** What a queued step changes: a lane's queue (measurements or an appointment) and, for a new patient, the patient lists. */
const queueRefetches = [
  CacheKey.Devices,
  CacheKey.Appointments,
  CacheKey.Patients,
  CacheKey.PatientSearch,
  CacheKey.Measurements,
  CacheKey.Examinations,
] as const;

export function createDicomFacet(ctx: FacetContext, reads: Pick<Reads, "reload">): DicomFacet {
  return {
    async saveSettings(settings) {
      const saved = await ctx.api.call("dicom.settingsUpdate", { body: settings });
      await reads.reload("dicom.settings");
      return saved;
    },
    testConnection: (peer) => ctx.api.call("dicom.echo", { body: { peer } }),
    async queryWorklist({ dryRun }) {
      const report = await ctx.api.call("worklist.query", { body: { dryRun } });
      if (!report.dryRun && report.steps.some((s) => s.action === "queued")) for (const key of queueRefetches) void ctx.cache.refetch(key);
      return report;
    },
  };
}
