import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import dcmjs from "dcmjs";

// A real worklist provider for the worklist suite (tests/server/worklist.test.ts) and the journeys
// (e2e/dicom-network.spec.ts): dcmtk's wlmscpfs (scripts/system-deps.sh installs dcmtk) on 127.0.0.1 and a free port,
// serving one AE title from a fresh directory of worklist files the test writes, as a RIS would put them in the
// provider's database.

export interface WorklistProvider {
  readonly port: number;
  readonly aeTitle: string;
  /** Puts a worklist item (a request with one scheduled step) in the provider's database. */
  write(item: WorklistItem): void;
  stop(): Promise<void>;
}

export interface WorklistItem {
  readonly file: string;
  /** Absent: an item without a Patient ID (one the importer must refuse). */
  readonly patientId?: string;
  /** DICOM PN: Family^Given. */
  readonly name: string;
  /** YYYYMMDD. */
  readonly birthdate: string;
  readonly sex: "F" | "M" | "O";
  readonly accession: string;
  /** Default RP-<accession>. */
  readonly requestedProcedureId?: string;
  /** Default a new UID. */
  readonly studyInstanceUid?: string;
  readonly stepId: string;
  readonly station: string;
  /** YYYYMMDD: today's date where the server runs (it asks for today's steps). */
  readonly day: string;
  /** HHMMSS. */
  readonly time: string;
  /** [scheme, value, meaning] of the Scheduled Protocol Code Sequence. */
  readonly codes: ReadonlyArray<readonly [string, string, string]>;
  readonly description: string;
}

/** A port nothing listens on (at the moment of asking). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Today's date as the server reads a worklist (its own time zone, the same machine's), YYYYMMDD. */
export function today(): string {
  const parts = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(new Date());
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part("year")}${part("month")}${part("day")}`;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

/** wlmscpfs serving `aeTitle`; -dfr serves incomplete items too, -csk answers in the files' character set (UTF-8). */
export async function startWorklistProvider(aeTitle: string): Promise<WorklistProvider> {
  const port = await freePort();
  const root = mkdtempSync(join(tmpdir(), "isopter-wlmscpfs-"));
  const dir = join(root, aeTitle);
  mkdirSync(dir);
  writeFileSync(join(dir, "lockfile"), "");
  const child: ChildProcess = spawn("wlmscpfs", ["-dfp", root, "-dfr", "-csk", String(port)], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout!.on("data", (c) => (log += c));
  child.stderr!.on("data", (c) => (log += c));
  const spawned = await new Promise<Error | null>((resolve) => {
    child.once("error", resolve);
    child.once("spawn", () => resolve(null));
  });
  if (spawned) throw new Error(`wlmscpfs did not start (${spawned.message}): bash scripts/system-deps.sh installs dcmtk`);
  for (let i = 0; !(await listening(port)); i++) {
    if (child.exitCode !== null || i > 100) throw new Error(`wlmscpfs did not listen: ${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    aeTitle,
    write(item) {
      const dataset = {
        _meta: {
          TransferSyntaxUID: { Value: ["1.2.840.10008.1.2.1"] },
          MediaStorageSOPClassUID: { Value: ["1.2.840.10008.5.1.4.31"] },
          MediaStorageSOPInstanceUID: { Value: [dcmjs.data.DicomMetaDictionary.uid()] },
        },
        SpecificCharacterSet: "ISO_IR 192",
        PatientName: item.name,
        ...(item.patientId !== undefined ? { PatientID: item.patientId } : {}),
        PatientBirthDate: item.birthdate,
        PatientSex: item.sex,
        AccessionNumber: item.accession,
        RequestedProcedureID: item.requestedProcedureId ?? `RP-${item.accession}`,
        RequestedProcedureDescription: "Perimetry",
        StudyInstanceUID: item.studyInstanceUid ?? dcmjs.data.DicomMetaDictionary.uid(),
        ScheduledProcedureStepSequence: [
          {
            Modality: "OPV",
            ScheduledStationAETitle: item.station,
            ScheduledProcedureStepStartDate: item.day,
            ScheduledProcedureStepStartTime: item.time,
            ScheduledProcedureStepID: item.stepId,
            ScheduledProcedureStepDescription: item.description,
            ScheduledProtocolCodeSequence: item.codes.map(([CodingSchemeDesignator, CodeValue, CodeMeaning]) => ({
              CodeValue,
              CodingSchemeDesignator,
              CodeMeaning,
            })),
          },
        ],
      };
      writeFileSync(join(dir, `${item.file}.wl`), dcmjs.data.datasetToBuffer(dataset as never));
    },
    stop: () =>
      new Promise((resolve) => {
        const done = () => (rmSync(root, { recursive: true, force: true }), resolve());
        if (child.exitCode !== null) return done();
        child.once("exit", done);
        child.kill("SIGTERM");
      }),
  };
}
