// isopter export --format dicom --stow URL against a real Orthanc with its DICOMweb plugin (tests/cli/orthanc.ts):
// what it stores, what QIDO-RS and WADO-RS then give back, and what the user sees when the server refuses or is absent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportContext } from "../../cli/export/context.ts";
import { parseStowUrl, part10Uids, redactUrl, stowFiles } from "../../cli/export/dicom-stow.ts";
import { dicomWriter } from "../../cli/export/dicom-writer.ts";
import { runExport } from "../../cli/export/run-export.ts";
import { freePort, readDicom, startStorescp } from "./dicom-tools.ts";
import { FAKE_USER, startFakeBackend, type FakeBackend } from "./fake-backend.ts";
import { FAKE_ORGANISATION, fakeApi } from "./fixtures.ts";
import { isopter, spawnRun, tempHome } from "./harness.ts";
import { startOrthanc, type Orthanc } from "./orthanc.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "isopter-stow-"));
const ds = (file: string) => readDicom(readFileSync(file)).ds;
const dicomFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".dcm"))
    .sort()
    .map((f) => join(dir, f));

/** A DICOM JSON attribute's first value (PS3.18 F.2). */
type DicomJson = Record<string, { vr: string; Value?: unknown[] }>;
const first = (item: DicomJson, tag: string): unknown => item[tag]?.Value?.[0];

describe("STOW-RS client, against a real Orthanc", () => {
  let orthanc: Orthanc;
  beforeAll(async () => void (orthanc = await startOrthanc()));
  afterAll(async () => orthanc?.stop());

  it("reads the DICOMweb URL: /studies appended, user information taken out as basic authentication; only http(s)", () => {
    expect(parseStowUrl("https://pacs.example/dicom-web/")).toEqual({
      studiesUrl: "https://pacs.example/dicom-web/studies",
      display: "https://pacs.example/dicom-web",
    });
    expect(parseStowUrl("http://10.0.0.5:8042/dicom-web/studies")?.studiesUrl).toBe("http://10.0.0.5:8042/dicom-web/studies");
    expect(parseStowUrl("http://h/dicom-web/studies/1.2.3")?.studiesUrl).toBe("http://h/dicom-web/studies/1.2.3");
    const withUser = parseStowUrl("https://al%40ice:p%3Ass@pacs.example/dicom-web")!;
    expect(withUser.display).toBe("https://pacs.example/dicom-web");
    expect(Buffer.from(withUser.authorization!.replace(/^Basic /, ""), "base64").toString()).toBe("al@ice:p:ss");
    for (const bad of ["ftp://pacs.example/dicom-web", "pacs.example/dicom-web", "PACS@10.0.0.5:104", "http://h/dw?x=1", ""])
      expect(parseStowUrl(bad), bad).toBeNull();
    expect(redactUrl("ftp://alice:secret@h/x")).toBe("ftp://alice:***@h/x");
  });

  it("stores in batches (3 files a request here); every file's outcome is stored, and Orthanc holds them all", async () => {
    const dir = tmp();
    const writer = dicomWriter(dir, { context: exportContext(FAKE_ORGANISATION, { timeZone: "Europe/Berlin" }) });
    await runExport(fakeApi({ patients: 3, resultsPerPatient: 2 }), { kind: "organisation" }, { reliableOnly: false }, writer);
    const files = [...writer.files];
    // The meta header's UIDs, as dcmjs reads them.
    for (const f of files) expect(part10Uids(readFileSync(f))).toEqual({ sopClass: ds(f).SOPClassUID, sopInstance: ds(f).SOPInstanceUID });
    const outcomes = await stowFiles(parseStowUrl(orthanc.dicomWebUrl)!, files, { batchFiles: 3 });
    expect(outcomes).toEqual(files.map((file) => ({ file, status: 0, stored: true })));
    const stored = await orthanc.rest<string[]>("/instances");
    expect(stored.length).toBeGreaterThanOrEqual(files.length);
  });
});

describe("the Orthanc harness is a PACS for DIMSE too (dcmtk's tools; the priors fetch will use it so)", () => {
  it("takes OPV and PDF by C-STORE; answers C-FIND at the image level, C-GET, and C-MOVE to a modality it was given", async () => {
    const receiver = await startStorescp();
    const pacs = await startOrthanc({ modalities: { isopter: [receiver.aet, "127.0.0.1", receiver.port] } });
    try {
      const dir = tmp();
      const writer = dicomWriter(dir, {
        context: exportContext(FAKE_ORGANISATION, { timeZone: "Europe/Berlin" }),
        pdf: async () => new TextEncoder().encode("%PDF-1.7\n%%EOF\n"),
      });
      await runExport(fakeApi({ patients: 1, resultsPerPatient: 1 }), { kind: "organisation" }, { reliableOnly: false }, writer);
      const uids = writer.files.map((f) => ds(f).SOPInstanceUID as string).sort();
      const at = ["-aec", pacs.aet, "127.0.0.1", String(pacs.dicomPort)];
      const store = await spawnRun("storescu", ["-R", ...at, ...writer.files]);
      expect(store.code, store.stderr).toBe(0);
      const keys = ["-k", "QueryRetrieveLevel=IMAGE", "-k", `PatientID=${ds(writer.files[0]!).PatientID}`, "-k", "SOPInstanceUID"];
      const find = await spawnRun("findscu", ["-v", "-S", ...keys, "-k", "SOPClassUID", ...at]);
      expect(find.code, find.stderr).toBe(0);
      expect([...find.stderr.matchAll(/\(0008,0018\) UI \[([0-9.]+)\]/g)].map((m) => m[1]).sort()).toEqual(uids);
      // Retrieval by study (what the priors fetch does after its C-FIND): both instances are one visit's study.
      const study = ["-k", "QueryRetrieveLevel=STUDY", "-k", `StudyInstanceUID=${ds(writer.files[0]!).StudyInstanceUID}`];
      const got = tmp();
      const get = await spawnRun("getscu", ["-S", "-od", got, ...study, ...at]);
      expect(get.code, get.stderr).toBe(0);
      expect(
        readdirSync(got)
          .map((f) => ds(join(got, f)).SOPInstanceUID)
          .sort(),
      ).toEqual(uids);
      const move = await spawnRun("movescu", ["-S", "-aem", receiver.aet, ...study, ...at]);
      expect(move.code, move.stderr).toBe(0);
      expect(
        receiver
          .received()
          .map((f) => ds(f).SOPInstanceUID)
          .sort(),
      ).toEqual(uids);
    } finally {
      await Promise.all([pacs.stop(), receiver.stop()]);
    }
  });
});

describe("isopter export --format dicom --stow: what the user sees (a real Orthanc, the CLI in-process)", () => {
  let backend: FakeBackend;
  let orthanc: Orthanc;
  let home: string;
  beforeAll(async () => {
    [backend, orthanc] = await Promise.all([startFakeBackend({ patients: 2, resultsPerPatient: 1 }), startOrthanc()]);
    home = tempHome();
    const login = await isopter(["login", "--server", backend.url, "-u", FAKE_USER.username, "--password-stdin"], {
      env: { ISOPTER_HOME: home },
      stdin: `${FAKE_USER.password}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
  });
  afterAll(async () => Promise.all([backend?.close(), orthanc?.stop()]));
  /** Every result (extra options after), or `--patient ID` among the extra options for that patient's only. */
  const exportTo = (stow: string, dir: string, ...extra: string[]) =>
    isopter(["export", ...(extra.includes("--patient") ? [] : ["--all"]), "--format", "dicom", "--out", dir, "--stow", stow, ...extra], {
      env: { ISOPTER_HOME: home, ISOPTER_TIME_ZONE: "Europe/Berlin" },
    });

  it("stores every file written; QIDO-RS finds every SOP instance, and WADO-RS gives back the OPV's values as written", async () => {
    const dir = tmp();
    const run = await exportTo(orthanc.dicomWebUrl, dir);
    expect(run.code, run.stderr).toBe(0);
    const files = dicomFiles(dir);
    expect(files).toHaveLength(4); // per result its OPV and its printed page
    expect(run.stderr).toContain(`Stored 4 of 4 files in ${orthanc.dicomWebUrl}.`);
    expect(run.stderr).not.toMatch(/not stored/);

    const written = files.map(ds);
    const found = await orthanc.rest<DicomJson[]>(`/dicom-web/instances?PatientID=${encodeURIComponent("U-100*")}&includefield=00100020`);
    expect(found.map((i) => first(i, "00080018")).sort()).toEqual(written.map((d) => d.SOPInstanceUID).sort());

    const opvs = written.filter((d) => d.Modality === "OPV");
    expect(opvs).toHaveLength(2);
    for (const opv of opvs) {
      const [meta] = await orthanc.rest<DicomJson[]>(
        `/dicom-web/studies/${opv.StudyInstanceUID}/series/${opv.SeriesInstanceUID}/instances/${opv.SOPInstanceUID}/metadata`,
      );
      expect(first(meta!, "00100020")).toBe(opv.PatientID);
      expect(first(meta!, "00080016")).toBe(opv.SOPClassUID);
      const points = meta!["00240089"]!.Value as DicomJson[]; // Visual Field Test Point Sequence
      expect(points).toHaveLength(opv.VisualFieldTestPointSequence.length);
      expect(points.length).toBeGreaterThan(40);
      points.forEach((p, k) => {
        const sensitivity = opv.VisualFieldTestPointSequence[k].SensitivityValue;
        if (sensitivity === undefined) expect(p["00240094"]?.Value).toBeUndefined();
        else expect(first(p, "00240094") as number).toBeCloseTo(sensitivity, 4);
      });
    }
  });

  it("--json: the summary names the service, what was sent and stored", async () => {
    const run = await exportTo(`${orthanc.dicomWebUrl}/`, tmp(), "--json");
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stderr.split("\n").find((l) => l.startsWith('{"stow"'))!);
    expect(summary).toEqual({ stow: orthanc.dicomWebUrl, sent: 4, stored: 4, refused: [] });
  });

  it("Orthanc refuses every instance (the URL names another study): each file named with its Failure Reason, exit code 1", async () => {
    const dir = tmp();
    const run = await exportTo(`${orthanc.dicomWebUrl}/studies/1.2.3.4`, dir);
    expect(run.code).toBe(1);
    const files = dicomFiles(dir);
    const refusals = run.stderr.split("\n").filter((l) => l.startsWith("not stored: "));
    expect(refusals.sort()).toEqual(files.map((f) => `not stored: ${f} (status 0x0110: processing failure)`));
    expect(run.stderr).toContain(`Stored 0 of 4 files in ${orthanc.dicomWebUrl}/studies/1.2.3.4.`);
    expect(run.stderr).toContain(`isopter: 4 of 4 files were not stored by ${orthanc.dicomWebUrl}/studies/1.2.3.4`);
  });

  it("a path that answers 404: one line naming the status and the server's message, exit code 1, the files still written", async () => {
    const dir = tmp();
    const run = await exportTo(`${orthanc.httpUrl}/no-dicom-web`, dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`isopter: --stow: ${orthanc.httpUrl}/no-dicom-web/studies answered 404 Not Found: Unknown resource`);
    expect(dicomFiles(dir)).toHaveLength(4);
  });

  it("nothing listening: exit code 4 (unreachable), naming the URL", async () => {
    const port = await freePort();
    const run = await exportTo(`http://127.0.0.1:${port}/dicom-web`, tmp());
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(new RegExp(`isopter: --stow: http://127\\.0\\.0\\.1:${port}/dicom-web: .*ECONNREFUSED`));
  });

  it("with --send too: a PACS not reached does not stop the STOW; the exit code is the failure's (4)", async () => {
    const port = await freePort();
    const dir = tmp();
    const run = await exportTo(orthanc.dicomWebUrl, dir, "--send", `NOBODY@127.0.0.1:${port}`);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toContain(`Stored 4 of 4 files in ${orthanc.dicomWebUrl}.`);
    expect(run.stderr).toMatch(new RegExp(`isopter: --send: 127\\.0\\.0\\.1:${port}`));
  });

  it("bad arguments (exit code 2): not an http(s) URL, named without its password; --stow without --format dicom", async () => {
    const ftp = await exportTo("ftp://alice:secret@pacs.example/dicom-web", tmp());
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain("--stow ftp://alice:***@pacs.example/dicom-web: give the DICOMweb service's http(s) URL");
    expect(ftp.stderr).not.toContain("secret");
    const csv = await isopter(["export", "--all", "--format", "json", "--stow", orthanc.dicomWebUrl], { env: { ISOPTER_HOME: home } });
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain("--stow stores DICOM by STOW-RS: use it with --format dicom");
  });

  it("basic authentication from the URL: stored with the right password; the wrong one is a 401 named without the password", async () => {
    const guarded = await startOrthanc({ users: { isopter: "pacs-pass" } });
    try {
      const at = (password: string) => guarded.dicomWebUrl.replace("http://", `http://isopter:${password}@`);
      const ok = await exportTo(at("pacs-pass"), tmp(), "--patient", "p00000");
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toContain(`Stored 2 of 2 files in ${guarded.dicomWebUrl}.`);
      const wrong = await exportTo(at("wrong-pass"), tmp(), "--patient", "p00000");
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain(`--stow: ${guarded.dicomWebUrl}/studies answered 401 Unauthorized`);
      expect(wrong.stderr).not.toContain("wrong-pass");
      expect(await guarded.rest<string[]>("/instances")).toHaveLength(2);
    } finally {
      await guarded.stop();
    }
  });
});
