import { describe, expect, it } from "vitest";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import { CacheKey, createClient } from "../../core/client/index.ts";
import { isApiError } from "../../core/model/contract/index.ts";
import type { DicomSettings, WorklistReport, WorklistStep } from "../../core/model/dicom-network.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { StorageKeys } from "../../core/ports.ts";
import { device, patient } from "./fixtures.ts";
import { fail, fakeApi, fakeSocket, settle, type FakeApi } from "./fakes.ts";

// The settings' "DICOM network" section (issue 29 §3) calls one core/client command each: save the settings (and read
// them again, so "Fetch priors" on a patient's page follows), test a peer's connection (C-ECHO), query the worklist now
// (a dry run writes nothing and reads nothing again; a real query that queued a step reads the lanes and patients again).

function setup(api: FakeApi) {
  const storage = memoryStorage();
  storage.session.set(StorageKeys.session.accessToken, "tok");
  const client = createClient({ api, socket: fakeSocket(), storage, clock: createVirtualClock() }, { variant: "measurements" });
  return { client, api };
}

const endpoints = (api: FakeApi) => api.calls.map((c) => c.endpoint);

const none: DicomSettings = { worklist: null, pacs: null };
const settings: DicomSettings = {
  worklist: {
    enabled: true,
    provider: { host: "ris.clinic.example", port: 104, calledAeTitle: "RIS", callingAeTitle: "PERIMETRY1" },
    intervalMinutes: 10,
    deviceSn: "SN1",
    modality: "OPV",
    localCodes: [{ scheme: "99CLINIC", value: "GLAUC-FU", pattern: Pattern.G, strategy: Strategy.SORS }],
  },
  pacs: {
    node: { host: "127.0.0.1", port: 4242, calledAeTitle: "ORTHANC", callingAeTitle: "ISOPTER" },
    retrieve: "move",
    storePort: 11112,
  },
};

const step = (over: Partial<WorklistStep>): WorklistStep => ({
  item: "step SPS-1 (accession A-1)",
  action: "queued",
  reason: null,
  patient: { id: "p1", name: "Ada Field", uniqueId: "U-1", created: false },
  queuedId: null,
  eye: Eye.Right,
  pattern: Pattern.P24_2,
  strategy: Strategy.DS,
  scheduledAt: "2026-03-01T09:00:00.000Z",
  ...over,
});

describe("dicom: save the settings", () => {
  it("sends the settings as they are, resolves with the stored ones and reads the settings again", async () => {
    let stored = none;
    const { client, api } = setup(
      fakeApi({
        "dicom.settings": () => stored,
        "dicom.settingsUpdate": ({ body }) => (stored = body),
      }),
    );
    await client.reads.load("dicom.settings", {});
    expect(client.reads.get("dicom.settings", {})?.data).toEqual(none);
    expect(await client.dicom.saveSettings(settings)).toEqual(settings);
    expect(endpoints(api)).toEqual(["dicom.settings", "dicom.settingsUpdate", "dicom.settings"]);
    expect(api.calls[1]!.input).toEqual({ body: settings });
    // Read again before the command resolves: the screen that saved shows what is stored.
    expect(client.reads.get("dicom.settings", {})?.data).toEqual(settings);
  });

  it("a refusal rejects with the server's error naming the field and reads nothing again", async () => {
    const { client, api } = setup(
      fakeApi({
        "dicom.settings": () => none,
        "dicom.settingsUpdate": fail(400, "validation_error", "body.pacs.node.calledAeTitle: an AE title is 1 to 16 characters"),
      }),
    );
    await client.reads.load("dicom.settings", {});
    const error = await client.dicom.saveSettings(settings).catch((e: unknown) => e);
    expect(isApiError(error) && error.status).toBe(400);
    expect(endpoints(api)).toEqual(["dicom.settings", "dicom.settingsUpdate"]);
  });
});

describe("dicom: test a connection", () => {
  it("verifies the peer asked for and answers the server's report, ok or not", async () => {
    const { client, api } = setup(
      fakeApi({
        "dicom.echo": ({ body }) =>
          body.peer === "pacs"
            ? { ok: false, message: "ORTHANC@127.0.0.1:4242 cannot be reached: connect ECONNREFUSED 127.0.0.1:4242" }
            : { ok: true, message: "RIS@ris.clinic.example:104 answered the verification (C-ECHO) as PERIMETRY1" },
      }),
    );
    expect(await client.dicom.testConnection("pacs")).toEqual({
      ok: false,
      message: "ORTHANC@127.0.0.1:4242 cannot be reached: connect ECONNREFUSED 127.0.0.1:4242",
    });
    expect((await client.dicom.testConnection("worklist")).ok).toBe(true);
    expect(api.calls.map((c) => c.input)).toEqual([{ body: { peer: "pacs" } }, { body: { peer: "worklist" } }]);
  });

  it("no such peer set: rejects with 404", async () => {
    const { client } = setup(fakeApi({ "dicom.echo": fail(404, "not_found", "No PACS is set for the organisation") }));
    const error = await client.dicom.testConnection("pacs").catch((e: unknown) => e);
    expect(isApiError(error) && error.status).toBe(404);
  });
});

describe("dicom: query the worklist now", () => {
  it("a dry run sends dryRun and reads nothing again", async () => {
    const report: WorklistReport = { dryRun: true, steps: [step({})] };
    const { client, api } = setup(fakeApi({ "device.all": () => [device("SN1")], "worklist.query": () => report }));
    await client.cache.fetch(CacheKey.Devices, {});
    expect(await client.dicom.queryWorklist({ dryRun: true })).toEqual(report);
    await settle();
    expect(endpoints(api)).toEqual(["device.all", "worklist.query"]);
    expect(api.calls[1]!.input).toEqual({ body: { dryRun: true } });
  });

  it("a query that queued a step reads the lanes and the patients again; one that queued nothing reads nothing", async () => {
    let steps: WorklistStep[] = [step({ queuedId: "m1", patient: { id: "p9", name: "Neu", uniqueId: "N-9", created: true } })];
    const { client, api } = setup(
      fakeApi({
        "device.all": () => [device("SN1")],
        "patient.all": () => [patient("p1")],
        "worklist.query": ({ body }) => ({ dryRun: body.dryRun, steps }),
      }),
    );
    await client.cache.fetch(CacheKey.Devices, {});
    await client.cache.fetch(CacheKey.Patients, {});
    await client.dicom.queryWorklist({ dryRun: false });
    await settle();
    expect(endpoints(api)).toEqual(["device.all", "patient.all", "worklist.query", "device.all", "patient.all"]);
    steps = [step({ action: "seen", reason: "queued before" }), step({ action: "refused", reason: "no patient ID", patient: null })];
    await client.dicom.queryWorklist({ dryRun: false });
    await settle();
    expect(endpoints(api).slice(5)).toEqual(["worklist.query"]);
  });

  it("a provider that cannot be reached rejects with 503 and its message", async () => {
    const { client } = setup(
      fakeApi({ "worklist.query": fail(503, "unavailable", "The worklist provider RIS at ris.clinic.example:104 cannot be reached") }),
    );
    const error = await client.dicom.queryWorklist({ dryRun: true }).catch((e: unknown) => e);
    expect(isApiError(error) && error.status).toBe(503);
    expect(isApiError(error) && error.message).toContain("cannot be reached");
  });
});
