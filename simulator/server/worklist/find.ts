import type { DicomNode } from "../../../core/model/dicom-network.ts";

// The Modality Worklist query (PS3.4 K, "FIND Modality Worklist Information Model", C-FIND) with dcmjs-dimse: the
// station's scheduled procedure steps for one day, as the provider lists them. The query keys:
// - Scheduled Station AE Title: our calling AE title (the station), Modality: the settings' modality (OPV);
// - Scheduled Procedure Step Start Date: the given day only (YYYYMMDD; the caller passes the clinic's today). Steps of
//   later days are queued on their day, by that day's query: a headset's lane is what runs now, not next week;
// - everything Isopter reads back as universal (empty) return keys: the patient (name, ID, its issuer, birth date,
//   sex), the request (accession number, requested procedure ID, study instance UID), and per step its ID,
//   description, start date and time, and protocol codes.
// The answer is the matches (pending responses' identifiers, naturalized by dcmjs), or one line saying why there are
// none: the provider cannot be reached, refuses the association (an unknown called or calling AE title), or ends
// the query with a failure status.

export type WorklistItem = Readonly<Record<string, unknown>>;

export type FindOutcome = { readonly ok: true; readonly items: readonly WorklistItem[] } | { readonly ok: false; readonly message: string };

export interface StepQuery {
  /** The day asked for, YYYYMMDD. */
  readonly date: string;
  readonly modality: string;
}

/** The C-FIND identifier: matching keys with values, return keys empty. */
export const worklistIdentifier = (node: DicomNode, query: StepQuery): Record<string, unknown> => ({
  PatientName: "",
  PatientID: "",
  IssuerOfPatientID: "",
  PatientBirthDate: "",
  PatientSex: "",
  AccessionNumber: "",
  RequestedProcedureID: "",
  StudyInstanceUID: "",
  ScheduledProcedureStepSequence: [
    {
      Modality: query.modality,
      ScheduledStationAETitle: node.callingAeTitle,
      ScheduledProcedureStepStartDate: query.date,
      ScheduledProcedureStepStartTime: "",
      ScheduledProcedureStepID: "",
      ScheduledProcedureStepDescription: "",
      ScheduledProtocolCodeSequence: [],
    },
  ],
});

const hex = (status: number) => `0x${status.toString(16).padStart(4, "0").toUpperCase()}`;
/** PS3.4 K.4.1.1.4 (C-FIND status codes of the worklist SOP class) in words. */
const statusWords = (status: number): string => {
  if (status === 0xa700) return "out of resources";
  if (status === 0xa900) return "the query does not match the SOP class";
  if (status === 0xfe00) return "cancelled";
  if (status >= 0xc000 && status <= 0xcfff) return "unable to process the query";
  return "a failure";
};

/** PS3.8 9.3.4 (A-ASSOCIATE-RJ): the reason, by its source, in words a manager can act on. */
export const rejection = (e: { source?: number; reason?: number }): string => {
  if (e.source === 1) {
    if (e.reason === 3) return "our calling AE title is not one it knows: check the station's AE title";
    if (e.reason === 7) return "the called AE title is not its own: check the provider's AE title";
    if (e.reason === 2) return "application context not supported";
  }
  if (e.source === 3) return e.reason === 1 ? "temporary congestion: it will be tried again" : "its limit of associations is reached";
  if (e.source === 2 && e.reason === 2) return "protocol version not supported";
  return "no reason given";
};

export async function findScheduledSteps(node: DicomNode, query: StepQuery, timeoutMs = 10_000): Promise<FindOutcome> {
  const { Client, requests, log } = (await import("dcmjs-dimse")).default;
  log.setLevel("silent");
  const peer = `${node.calledAeTitle}@${node.host}:${node.port}`;
  return new Promise((resolve) => {
    const client = new Client();
    const request = requests.CFindRequest.createWorklistFindRequest(worklistIdentifier(node, query));
    const items: WorklistItem[] = [];
    let status: number | null = null;
    let failure: string | null = null;
    request.on("response", (r: { getStatus(): number; getDataset(): { getElements(): Record<string, unknown> } | undefined }) => {
      const s = r.getStatus();
      // Pending (0xFF00, 0xFF01): one match each; anything else ends the query.
      if (s === 0xff00 || s === 0xff01) {
        const ds = r.getDataset();
        if (ds) items.push(ds.getElements());
      } else status = s;
    });
    client.addRequest(request);
    client.on(
      "associationRejected",
      (e: { source?: number; reason?: number }) =>
        (failure = `The worklist provider ${peer} refused the association from ${node.callingAeTitle} (${rejection(e)})`),
    );
    // A connection cut after the final status (while releasing the association) loses nothing: the answer is complete.
    client.on("networkError", (e: Error) => {
      if (status === null)
        failure ??= `The worklist provider ${peer} cannot be reached: ${e.message.replace(/^.*-> Connection error: /, "")}`;
    });
    client.on("closed", () => {
      if (failure) return resolve({ ok: false, message: failure });
      if (status === 0) return resolve({ ok: true, items });
      resolve({
        ok: false,
        message:
          status === null
            ? `The worklist provider ${peer} closed the association without answering the query`
            : `The worklist provider ${peer} ended the query with status ${hex(status)} (${statusWords(status)})`,
      });
    });
    client.send(node.host, node.port, node.callingAeTitle, node.calledAeTitle, {
      connectTimeout: timeoutMs,
      associationTimeout: timeoutMs,
      pduTimeout: timeoutMs,
    });
  });
}
