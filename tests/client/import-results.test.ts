import { describe, expect, it } from "vitest";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import {
  CacheKey,
  createClient,
  importSummary,
  IMPORT_BATCH_CHARS,
  isDicom,
  parseCsvPatients,
  toBase64,
  toImportFile,
  type ImportProgress,
  type ImportSource,
} from "../../core/client/index.ts";
import { isApiError } from "../../core/model/contract/index.ts";
import type { ImportBody, ImportFileReport, ImportItem, ImportReport } from "../../core/model/import.ts";
import { StorageKeys } from "../../core/ports.ts";
import { patient } from "./fixtures.ts";
import { fail, fakeApi, settle, fakeSocket, type FakeApi } from "./fakes.ts";

// "Import results" from the web (issue 29): one core/client command batches the files as `isopter import` does (at most
// 100 files and ~3 MB of content per call, DICOM as base64, text as UTF-8), reports progress, answers the whole report
// in the order given and reads again what it changed.

function setup(api: FakeApi) {
  const storage = memoryStorage();
  storage.session.set(StorageKeys.session.accessToken, "tok");
  const client = createClient({ api, socket: fakeSocket(), storage, clock: createVirtualClock() }, { variant: "measurements" });
  return { client, api };
}

const endpoints = (api: FakeApi) => api.calls.map((c) => c.endpoint);
const imports = (api: FakeApi) => api.calls.filter((c) => c.endpoint === "results.import").map((c) => c.input.body as ImportBody);
const text = (s: string) => new TextEncoder().encode(s);
const dicom = (size = 400) => {
  const bytes = new Uint8Array(size).map((_, i) => (i * 7) & 255);
  bytes.set(text("DICM"), 128);
  return bytes;
};

const item = (name: string, over: Partial<ImportItem> = {}): ImportItem => ({
  item: name,
  action: "imported",
  reason: null,
  patient: { id: "p1", name: "Ada Field", uniqueId: "U-1", match: "created" },
  measurementId: `m-${name}`,
  takenAt: "2024-03-01T09:00:00.000Z",
  eye: 0,
  pattern: 2,
  device: "Carl Zeiss Meditec HFA3 860 · SITA Standard",
  ...over,
});

/** The server's answer: each file imported with one field (or as `decide` says). */
const answering =
  (decide: (name: string) => Partial<ImportFileReport> = () => ({})) =>
  (input: { body: ImportBody }): ImportReport => ({
    dryRun: input.body.dryRun,
    files: input.body.files.map((f) => ({
      file: f.name,
      format: "dicom-opv",
      action: "imported",
      reason: null,
      items: [item(f.name)],
      ...decide(f.name),
    })),
  });

const named = (n: number, bytes = (i: number) => text(`row ${i}\n`)): ImportSource[] =>
  Array.from({ length: n }, (_, i) => ({ name: `f${String(i).padStart(3, "0")}`, bytes: bytes(i) }));

describe("encoding: DICOM as base64, UTF-8 text as it is, anything else as base64", () => {
  it("a Part 10 file (DICM at 128) is base64 even when its bytes would decode as UTF-8", () => {
    const bytes = new Uint8Array(200).fill(0x41);
    bytes.set(text("DICM"), 128);
    expect(isDicom(bytes)).toBe(true);
    expect(toImportFile("a.dcm", bytes)).toEqual({ name: "a.dcm", encoding: "base64", content: Buffer.from(bytes).toString("base64") });
  });

  it("UTF-8 text (a CSV with accents, a FHIR Bundle) goes as text, a byte order mark kept", () => {
    const csv = "\uFEFFid,eye\nŞükrü,OD\n";
    expect(toImportFile("a.csv", text(csv))).toEqual({ name: "a.csv", encoding: "utf8", content: csv });
  });

  it("bytes that are not UTF-8 go as base64", () => {
    const latin1 = Uint8Array.from([0x69, 0x64, 0x2c, 0xe9, 0x0a]);
    expect(toImportFile("a.csv", latin1)).toEqual({ name: "a.csv", encoding: "base64", content: "aWQs6Qo=" });
  });

  it("base64 is the standard one for every length", () => {
    for (let n = 0; n < 70_000; n += n < 10 ? 1 : 8_191) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 31 + 7) & 255);
      expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
    }
  });
});

describe("client.results.importResults: batches, progress and the report", () => {
  it("250 files go in calls of 100, 100 and 50; the reports come back in the order given; progress counts files", async () => {
    const { client, api } = setup(fakeApi({ "results.import": answering() }));
    const progress: ImportProgress[] = [];
    const report = await client.results.importResults(named(250), { dryRun: false }, (p) => progress.push(p));
    expect(imports(api).map((b) => b.files.length)).toEqual([100, 100, 50]);
    expect(report.files.map((f) => f.file)).toEqual(named(250).map((f) => f.name));
    expect(progress[0]).toEqual({ done: 0, total: 250 });
    expect(progress.at(-1)).toEqual({ done: 250, total: 250 });
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
    expect(imports(api)[0]).toEqual({ dryRun: false, files: expect.any(Array) });
    expect(imports(api)[0]!.files[1]).toEqual({ name: "f001", encoding: "utf8", content: "row 1\n" });
  });

  it("a batch holds about 3 MB of content at most; a file larger than one call is refused here and never sent", async () => {
    const { client, api } = setup(fakeApi({ "results.import": answering() }));
    const mb = (n: number) => async () => text("x".repeat(n * 1_000_000));
    const files: ImportSource[] = [
      { name: "a.csv", bytes: mb(1.2) },
      { name: "b.csv", bytes: mb(1.2) },
      { name: "huge.csv", bytes: () => Promise.resolve(new Uint8Array(IMPORT_BATCH_CHARS + 1)) },
      { name: "c.csv", bytes: mb(1.2) },
    ];
    const report = await client.results.importResults(files, { dryRun: true });
    expect(imports(api).map((b) => b.files.map((f) => f.name))).toEqual([["a.csv", "b.csv"], ["c.csv"]]);
    expect(report.files.map((f) => [f.file, f.action])).toEqual([
      ["a.csv", "imported"],
      ["b.csv", "imported"],
      ["huge.csv", "refused"],
      ["c.csv", "imported"],
    ]);
    expect(report.files[2]!.reason).toBe("too large for one upload (3.0 MB; split it below 3 MB)");
  });

  it("DICOM files are sent as base64, a file that cannot be read is refused naming why", async () => {
    const { client, api } = setup(fakeApi({ "results.import": answering() }));
    const report = await client.results.importResults(
      [
        { name: "x/1.dcm", bytes: dicom() },
        { name: "x/gone.dcm", bytes: () => Promise.reject(new Error("NotFoundError")) },
      ],
      { dryRun: true },
    );
    expect(imports(api)[0]!.files).toEqual([{ name: "x/1.dcm", encoding: "base64", content: Buffer.from(dicom()).toString("base64") }]);
    expect(report.files[1]).toEqual({
      file: "x/gone.dcm",
      format: null,
      action: "refused",
      reason: "cannot read (NotFoundError)",
      items: [],
    });
  });

  it("on a patient's page the patient goes with every call; a CSV mapping too", async () => {
    const { client, api } = setup(fakeApi({ "results.import": answering() }));
    await client.results.importResults(named(101), { dryRun: true, patientId: "p1", csvPatients: { A: "U-1" } });
    expect(imports(api).map(({ files, ...rest }) => rest)).toEqual([
      { dryRun: true, patientId: "p1", csvPatients: { A: "U-1" } },
      { dryRun: true, patientId: "p1", csvPatients: { A: "U-1" } },
    ]);
  });

  it("at most two calls are in flight while the next batch is read", async () => {
    const pending: Array<() => void> = [];
    let most = 0;
    let open = 0;
    const reply = answering();
    const api = fakeApi({
      "results.import": (input) =>
        new Promise((resolve) => {
          open += 1;
          most = Math.max(most, open);
          pending.push(() => {
            open -= 1;
            resolve(reply(input));
          });
        }),
    });
    const { client } = setup(api);
    const running = client.results.importResults(named(500), { dryRun: true });
    while (imports(api).length < 5 || pending.length > 0) {
      await settle();
      pending.shift()?.();
    }
    expect((await running).files).toHaveLength(500);
    expect(most).toBe(2);
  });

  it("a call that fails reports its files refused with the server's words and the rest goes on", async () => {
    let n = 0;
    const reply = answering();
    const { client } = setup(
      fakeApi({
        "results.import": (input) => (++n === 1 ? fail(503, "unavailable", "The database is busy")() : reply(input)),
      }),
    );
    const report = await client.results.importResults(named(150), { dryRun: false });
    expect(report.files.slice(0, 100).every((f) => f.action === "refused" && f.reason === "not sent: The database is busy")).toBe(true);
    expect(report.files.slice(100).every((f) => f.action === "imported")).toBe(true);
  });

  it("a refusal of the user (forbidden) rejects with the ApiError and sends nothing more", async () => {
    const { client, api } = setup(fakeApi({ "results.import": fail(403, "forbidden") }));
    const error = await client.results.importResults(named(300), { dryRun: false }).catch((e: unknown) => e);
    expect(isApiError(error) && error.status).toBe(403);
    expect(imports(api).length).toBeLessThanOrEqual(2);
  });
});

describe("client.results.importResults: what it reads again", () => {
  const lists = {
    "patient.all": () => [patient("p1")],
    "patient.get": () => patient("p1"),
    "patient.search": () => ({ entries: [patient("p1")], remaining: 0, page: 0 }),
    "perimetry.all": () => [],
    "examination.all": () => [],
    "perimetry.recent": () => [],
  };
  const load = async (client: ReturnType<typeof setup>["client"]) => {
    await client.cache.fetch(CacheKey.Patients, {});
    await client.cache.fetch(CacheKey.Patients, { id: "p1" });
    await client.cache.fetch(CacheKey.PatientSearch, { name: "", birthdate: null });
    await client.cache.fetch(CacheKey.Measurements, { patientId: "p1" });
    await client.cache.fetch(CacheKey.Examinations, { patientId: "p1", taken: true });
    await client.reads.load("perimetry.recent", {});
  };

  it("after an import the patients' lists, the patient, their results and the latest results are read again", async () => {
    const { client, api } = setup(fakeApi({ ...lists, "results.import": answering() }));
    await load(client);
    const before = api.calls.length;
    await client.results.importResults(named(2), { dryRun: false });
    await settle();
    expect(endpoints(api).slice(before).sort()).toEqual(
      ["results.import", "patient.all", "patient.get", "patient.search", "perimetry.all", "examination.all", "perimetry.recent"].sort(),
    );
  });

  it("a dry run, or an import where nothing was imported, reads nothing again", async () => {
    const { client, api } = setup(fakeApi({ ...lists, "results.import": answering(() => ({ action: "duplicate" })) }));
    await load(client);
    const before = api.calls.length;
    await client.results.importResults(named(2), { dryRun: false });
    api.on("results.import", answering());
    await client.results.importResults(named(2), { dryRun: true });
    await settle();
    expect(endpoints(api).slice(before)).toEqual(["results.import", "results.import"]);
  });
});

describe("importSummary: the CLI's counts", () => {
  it("counts files by action, fields of imported files, and each created patient once", () => {
    const report: ImportReport = {
      dryRun: false,
      files: [
        { file: "a", format: "dicom-opv", action: "imported", reason: null, items: [item("1"), item("2")] },
        {
          file: "b",
          format: "dicom-opv",
          action: "imported",
          reason: null,
          items: [item("3", { patient: { id: "p2", name: "B", uniqueId: "U-2", match: "id" } })],
        },
        { file: "c", format: "dicom-opv", action: "duplicate", reason: null, items: [item("4", { action: "duplicate" })] },
        { file: "d", format: null, action: "refused", reason: "not a DICOM OPV", items: [] },
      ],
    };
    expect(importSummary(report)).toEqual({ files: 4, imported: 2, duplicates: 1, refused: 1, fields: 3, patientsCreated: 1 });
  });
});

describe("parseCsvPatients: the CSV mapping file, as --csv-patients reads it", () => {
  it("maps 'csv id,unique id' lines, trimmed and unquoted, skipping blank and # lines and a byte order mark", () => {
    expect(parseCsvPatients('\uFEFF# csv id, unique id\r\nA, U-1\n"B","U-2"\n\n')).toEqual({ map: { A: "U-1", B: "U-2" } });
  });
  it("names the first line that is not two values", () => {
    expect(parseCsvPatients("A,U-1\nB\nC,U-3,x\n")).toEqual({ badLine: 2 });
    expect(parseCsvPatients("A,U-1\nC,U-3,x\n")).toEqual({ badLine: 2 });
  });
});
