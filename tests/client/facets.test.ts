import { describe, expect, it } from "vitest";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import { CacheKey, createClient } from "../../core/client/index.ts";
import { Eye } from "../../core/model/enums.ts";
import type { ExaminationPayload } from "../../core/model/examination.ts";
import { defaultMeasurementConfig } from "../../core/rules/defaults.ts";
import { StorageKeys } from "../../core/ports.ts";
import { device, examination, measurement, patient } from "./fixtures.ts";
import { fail, fakeApi, fakeSocket, settle, type FakeApi } from "./fakes.ts";

// The facets' commands: each sequence of calls a screen used to compose itself, now one command in core/client.

function setup(api: FakeApi) {
  const storage = memoryStorage();
  storage.session.set(StorageKeys.session.accessToken, "tok");
  const client = createClient({ api, socket: fakeSocket(), storage, clock: createVirtualClock() }, { variant: "measurements" });
  return { client, api, storage };
}

const endpoints = (api: FakeApi) => api.calls.map((c) => c.endpoint);
const config = { ...defaultMeasurementConfig("older"), patientId: "p1", deviceSn: "SN1" };
const payload: ExaminationPayload = { patientId: "p1", type: "amsler", deviceSn: "SN1", eye: Eye.Right, notes: "", config: null };

describe("lanes: the measurement form's save (scheduling seed §2 'Measurement form')", () => {
  it("a new measurement is registered, then the lanes are read again", async () => {
    const { client, api } = setup(fakeApi({ "perimetry.register": () => [measurement("m1")], "device.all": () => [device("SN1")] }));
    await client.cache.fetch(CacheKey.Devices, {});
    expect(await client.lanes.saveMeasurement({ mode: "create", deviceSn: "SN1", config })).toBe(true);
    await settle();
    expect(endpoints(api)).toEqual(["device.all", "perimetry.register", "device.all"]);
    expect(api.calls[1]!.input.body).toMatchObject({ patientId: "p1", deviceSn: "SN1" });
  });

  it("an edit changes the measurement it was opened on; a refusal resolves false and reads nothing", async () => {
    const { client, api } = setup(fakeApi({ "perimetry.update": fail(500, "internal_error") }));
    expect(await client.lanes.saveMeasurement({ mode: "edit", deviceSn: "SN1", config, sourceId: "m7" })).toBe(false);
    expect(endpoints(api)).toEqual(["perimetry.update"]);
    expect(api.calls[0]!.input.query).toEqual({ id: "m7" });
  });

  it("stand-alone mode: 'cannot change while another measurement runs' is false without a call", async () => {
    const { client, api } = setup(fakeApi({ "device.all": () => [device("SN1", { status: "playing" })] }));
    await client.cache.fetch(CacheKey.Devices, {});
    expect(await client.lanes.saveMeasurement({ mode: "standalone", deviceSn: "SN1", config })).toBe(false);
    expect(endpoints(api)).toEqual(["device.all"]);
  });

  it("stand-alone mode on an idle headset sends the configuration without notes and lane", async () => {
    const { client, api } = setup(fakeApi({ "device.all": () => [device("SN1")], "device.standalone": () => null }));
    await client.cache.fetch(CacheKey.Devices, {});
    expect(await client.lanes.saveMeasurement({ mode: "standalone", deviceSn: "SN1", config })).toBe(true);
    const sent = api.calls.find((c) => c.endpoint === "device.standalone")!;
    expect(sent.input.query).toEqual({ deviceSn: "SN1" });
    expect(sent.input.body).not.toHaveProperty("notes");
    expect(sent.input.body).not.toHaveProperty("deviceSn");
  });
});

describe("lanes: the examination wizard's save (scheduling seed §2, appointment variant)", () => {
  const answer = () => ({});
  it("a new appointment takes the defaults of a new measurement when no perimetry test sets them", async () => {
    const { client, api } = setup(fakeApi({ "appointment.registerWithExaminations": answer, "device.all": () => [] }));
    expect(await client.lanes.saveExaminations({ deviceSn: "SN1", patientId: "p1", examinations: [payload] })).toBe(true);
    const defaults = defaultMeasurementConfig("newer");
    expect(api.calls[0]!.input.body).toEqual({
      audioGuide: defaults.audioGuide,
      tutorial: defaults.tutorial,
      trackGaze: defaults.trackGaze,
      deviceSn: "SN1",
      patientId: "p1",
      examinations: [payload],
      standaloneId: null,
    });
  });

  it("a new appointment follows its first perimetry test's settings", async () => {
    const { client, api } = setup(fakeApi({ "appointment.registerWithExaminations": answer, "device.all": () => [] }));
    await client.lanes.saveExaminations({
      deviceSn: "SN1",
      patientId: "p1",
      examinations: [payload],
      perimetry: { audioGuide: false, tutorial: true, trackGaze: false },
    });
    expect(api.calls[0]!.input.body).toMatchObject({ audioGuide: false, tutorial: true, trackGaze: false });
  });

  it("tests chosen from an appointment's panel are added to it; editing one examination keeps its notes", async () => {
    const { client, api } = setup(
      fakeApi({ "appointment.insertExaminations": answer, "examination.update": answer, "device.all": () => [] }),
    );
    await client.lanes.saveExaminations({ deviceSn: "SN1", patientId: "p1", examinations: [payload], appointmentId: "a9" });
    await client.lanes.saveExaminations({
      deviceSn: "SN1",
      patientId: "p1",
      examinations: [payload],
      editing: examination("e3", { notes: "kept" }),
    });
    const [insert, update] = api.calls.filter((c) => c.endpoint !== "device.all");
    expect(insert).toMatchObject({
      endpoint: "appointment.insertExaminations",
      input: { query: { appointmentId: "a9" }, body: { examinations: [payload] } },
    });
    expect(update).toMatchObject({
      endpoint: "examination.update",
      input: { query: { id: "e3" }, body: { ...payload, id: "e3", notes: "kept" } },
    });
  });
});

describe("lanes: template scheduling", () => {
  it("measurements are queued one call each in order; the first refusal stops the rest and says how many went", async () => {
    let n = 0;
    const { client, api } = setup(
      fakeApi({ "perimetry.register": () => (++n === 2 ? fail(500, "internal_error")() : []), "device.all": () => [] }),
    );
    await client.cache.fetch(CacheKey.Devices, {});
    const bodies = [1, 2, 3].map((i) => ({ ...config, displayName: `T${i}` }));
    expect(await client.lanes.registerMeasurements(bodies)).toEqual({ registered: 1, complete: false });
    await settle();
    expect(api.calls.map((c) => c.input?.body?.displayName ?? c.endpoint)).toEqual(["device.all", "T1", "T2", "device.all"]);
  });

  it("nothing queued: the lanes are not read again", async () => {
    const { client, api } = setup(fakeApi({ "perimetry.register": fail(500, "internal_error"), "device.all": () => [] }));
    await client.cache.fetch(CacheKey.Devices, {});
    expect(await client.lanes.registerMeasurements([config])).toEqual({ registered: 0, complete: false });
    await settle();
    expect(endpoints(api)).toEqual(["device.all", "perimetry.register"]);
  });
});

describe("patients", () => {
  it("registering answers the created patient in one call; a change reads the cached patients again", async () => {
    const created = patient("p9");
    const { client, api } = setup(
      fakeApi({ "patient.register": () => created, "patient.update": () => created, "patient.get": () => created }),
    );
    await client.cache.fetch(CacheKey.Patients, { id: "p9" });
    expect(await client.patients.save({ name: "Ada", uniqueId: "U9", gender: 0, lang: "en", birthdate: "1950-01-01" } as never)).toBe(
      created,
    );
    await client.patients.save({ name: "Ada", uniqueId: "U9", gender: 0, lang: "en", birthdate: "1950-01-01" } as never, "p9");
    await settle();
    expect(endpoints(api)).toEqual(["patient.get", "patient.register", "patient.update", "patient.get"]);
  });

  it("one patient comes from the cache when there, else it is loaded once", async () => {
    const { client, api } = setup(fakeApi({ "patient.get": () => patient("p1") }));
    await Promise.all([client.patients.load("p1"), client.patients.load("p1")]);
    expect((await client.patients.load("p1")).id).toBe("p1");
    expect(endpoints(api)).toEqual(["patient.get"]);
  });
});

describe("results: notes ('Notes dialog: open, saving, then saved')", () => {
  it("a measurement's notes go through PATCH perimetry, an examination's through examination/update; the list is read again", async () => {
    const { client, api } = setup(
      fakeApi({
        "perimetry.update": () => measurement("m1"),
        "examination.update": () => examination("e1"),
        "perimetry.all": () => [],
        "examination.all": () => [],
      }),
    );
    await client.cache.fetch(CacheKey.Measurements, { patientId: "p1" });
    await client.cache.fetch(CacheKey.Examinations, { patientId: "p1" });
    await client.results.saveNotes("measurement", "m1", "one");
    await client.results.saveNotes("examination", "e1", "two");
    await settle();
    expect(api.calls.slice(2).map((c) => [c.endpoint, c.input.body])).toEqual([
      ["perimetry.update", { notes: "one" }],
      ["perimetry.all", undefined],
      ["examination.update", { id: "e1", notes: "two" }],
      ["examination.all", undefined],
    ]);
  });
});

describe("marks: one read per write, so a view can compare what it read", () => {
  it("reads answer the same value until a write; 'Marking it reliable again also clears a baseline mark'", () => {
    const { client, storage } = setup(fakeApi());
    const pinned = client.marks.pinned;
    expect(client.marks.pinned).toBe(pinned);
    client.marks.togglePin("SN1");
    expect(client.marks.pinned).toEqual(["SN1"]);
    expect(client.marks.pinned).toBe(client.marks.pinned);
    client.marks.setUnreliable("m1", true);
    client.marks.toggleBaseline(Eye.Left, "m1");
    expect(client.marks.baseline).toEqual(["m1", null]);
    client.marks.setUnreliable("m1", false);
    expect(client.marks.baseline).toEqual([null, null]);
    expect(JSON.parse(storage.local.get(StorageKeys.local.baselineResultIds)!)).toEqual([null, null]);
  });

  it("every change grows the revision", () => {
    const { client } = setup(fakeApi());
    const before = client.revision;
    client.marks.updateSettings({ historyExpanded: true });
    expect(client.revision).toBe(before + 1);
    expect(client.marks.settings.historyExpanded).toBe(true);
  });
});

describe("reads beside the seeds' caches", () => {
  it("keeps one entry per call and input; a reload keeps the answer shown and the latest answer wins", async () => {
    const answers: Array<(v: unknown) => void> = [];
    const { client } = setup(fakeApi({ "device.enrolments": () => new Promise((r) => answers.push(r)) }));
    const first = client.reads.load("device.enrolments", {});
    answers[0]!(["a"]);
    await first;
    expect(client.reads.get("device.enrolments", {})).toMatchObject({ status: "success", data: ["a"] });
    const slow = client.reads.reload("device.enrolments");
    const fast = client.reads.load("device.enrolments", {});
    expect(client.reads.get("device.enrolments", {})).toMatchObject({ status: "loading", data: ["a"] });
    answers[2]!(["c"]);
    await fast;
    answers[1]!(["b"]);
    await slow;
    expect(client.reads.get("device.enrolments", {})).toMatchObject({ status: "success", data: ["c"] });
  });

  it("logging out forgets them", async () => {
    const { client } = setup(fakeApi({ "user.profile": () => ({ market: "MDR", country: null }), logout: () => null }));
    await client.reads.load("user.profile", {});
    await client.session.logout();
    expect(client.reads.get("user.profile", {})).toBeUndefined();
  });
});
