import { describe, expect, it } from "vitest";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import {
  ALIAS_ERROR_MS,
  CacheKey,
  createClient,
  endsSession,
  isSessionExpiryStatus,
  lifecycleFailureNotice,
  PATIENT_SEARCH_DEBOUNCE_MS,
  SOCKET_STATE_MESSAGES,
  type ClientEvents,
} from "../../core/client/index.ts";
import { ApiError } from "../../core/model/contract/errors.ts";
import { SocketState } from "../../core/model/enums.ts";
import { StorageKeys } from "../../core/ports.ts";
import { device, patient } from "./fixtures.ts";
import { fail, fakeApi, fakeSocket, settle, type FakeApi } from "./fakes.ts";

function setup(api: FakeApi, variant: "measurements" | "appointments" = "measurements") {
  const clock = createVirtualClock();
  const storage = memoryStorage();
  storage.session.set(StorageKeys.session.accessToken, "tok");
  const client = createClient({ api, socket: fakeSocket(), storage, clock }, { variant });
  const notices: ClientEvents["notice"][] = [];
  const navigations: string[] = [];
  client.events.on("notice", (n) => notices.push(n));
  client.events.on("navigate", (n) => navigations.push(n.to));
  return { clock, client, notices, navigations };
}

describe("session expiry rule (accounts seed §4)", () => {
  const err = (status: number, responseType?: string) => new ApiError({ status, responseType, message: "" });
  it("'any 4xx response above 400 and below 500' ends the session", () => {
    expect([400, 401, 403, 404, 499, 500].map(isSessionExpiryStatus)).toEqual([false, true, true, true, true, false]);
    expect(endsSession("device.all", err(401, "unauthorized"))).toBe(true);
    expect(endsSession("patient.all", err(403))).toBe(true);
  });
  it("except a 403 forbidden (our reading, issue 21): the role may not do this one thing, the session stays", () => {
    expect(endsSession("user.delete", err(403, "forbidden"))).toBe(false);
    expect(endsSession("user.update", err(403, "forbidden"))).toBe(false);
  });
  it("except answers about the request's size or pace (issue 21): a 413 or 429, ours or a proxy's, keeps the session", () => {
    expect(endsSession("perimetry.update", err(413, "payload_too_large"))).toBe(false);
    expect(endsSession("patient.register", err(413))).toBe(false);
    expect(endsSession("patient.search", err(429, "rate_limited"))).toBe(false);
    expect(endsSession("patient.search", err(429))).toBe(false);
    expect(endsSession("patient.search", err(408))).toBe(false);
  });
  it("'A token-expired or token-verification-error event' ends it", () => {
    expect(endsSession("device.all", err(401, "token_expired"))).toBe(true);
    expect(endsSession("device.all", err(401, "token_verification_error"))).toBe(true);
  });
  it("except answers a screen handles itself (our reading): drag conflict, wrong password, reset link", () => {
    expect(endsSession("device.dragAndDropPerimetry", err(409, "device_revision_conflict"))).toBe(false);
    expect(endsSession("login", err(401, "invalid_credentials"))).toBe(false);
    expect(endsSession("passwordReset.confirm", err(401, "token_expired"))).toBe(false);
    expect(endsSession("device.all", new Error("not an api error"))).toBe(false);
  });
});

describe("socket states", () => {
  it("'Websocket states: uninstantiated, connecting, open, closing, closed' each carry a message", () => {
    expect(Object.keys(SOCKET_STATE_MESSAGES).sort()).toEqual(Object.values(SocketState).sort());
    expect(SOCKET_STATE_MESSAGES.uninstantiated).toMatch(/not established/);
  });
});

describe("patient search ('input debounced 500 ms'; 'paging continues while remaining > 0')", () => {
  it("fetches only the last input, 500 ms after it, and appends further pages", async () => {
    const api = fakeApi({
      "patient.search": ({ body }) =>
        body.page === 0 ? { entries: [patient("p1")], remaining: 1, page: 0 } : { entries: [patient("p2")], remaining: 0, page: 1 },
    });
    const { client, clock } = setup(api);
    client.patients.search({ name: "a", birthdate: null });
    clock.advance(300);
    client.patients.search({ name: "an", birthdate: null });
    clock.advance(PATIENT_SEARCH_DEBOUNCE_MS - 1);
    expect(api.calls).toHaveLength(0);
    clock.advance(1);
    await settle();
    expect(api.calls.map((c) => c.input.body.filter.name)).toEqual(["an"]);
    await client.patients.nextSearchPage({ name: "an", birthdate: null });
    await client.patients.nextSearchPage({ name: "an", birthdate: null });
    expect(client.cache.get(CacheKey.PatientSearch, { name: "an", birthdate: null })!.data).toEqual({
      entries: [patient("p1"), patient("p2")],
      remaining: 0,
      page: 1,
    });
    expect(api.calls).toHaveLength(2);
  });
});

describe("lifecycle (scheduling seed §4 'Lifecycle', §8)", () => {
  it("'Restoring refetches and notifies with an action to open the item.'", async () => {
    const api = fakeApi({ "perimetry.restore": () => null, "perimetry.allTrashed": () => [] });
    const { client, notices } = setup(api);
    await client.cache.fetch(CacheKey.TrashedMeasurements, {});
    expect(await client.lifecycle("measurement", "restore", "m1")).toBe(true);
    expect(api.calls.filter((c) => c.endpoint === "perimetry.allTrashed")).toHaveLength(2);
    expect(notices[0]!.action).toMatchObject({ kind: "open-item", itemId: "m1" });
  });

  it("'Trashing a measurement notifies with a link to the bin; trashing an appointment notifies 'Appointment trashed' with an action to view it.'", async () => {
    const api = fakeApi({ "perimetry.trash": () => null, "appointment.trash": () => null });
    const { client, notices } = setup(api);
    await client.lifecycle("measurement", "trash", "m1");
    await client.lifecycle("appointment", "trash", "a1");
    expect(notices.map((n) => [n.title, n.action?.kind])).toEqual([
      ["Measurement trashed", "open-bin"],
      ["Appointment trashed", "open-item"],
    ]);
  });

  it("'Trashing a patient from the profile goes home and notifies with a link to the bin.'", async () => {
    const { client, notices, navigations } = setup(fakeApi({ "patient.trash": () => null }));
    await client.lifecycle("patient", "trash", "p1");
    expect(navigations).toEqual(["home"]);
    expect(notices[0]!.action?.kind).toBe("open-bin");
  });

  it("failures show the catalogue's messages", async () => {
    const { client, notices } = setup(
      fakeApi({ "perimetry.delete": fail(500, "internal_error"), "examination.delete": fail(500, "internal_error") }),
    );
    expect(await client.lifecycle("measurement", "delete", "m1")).toBe(false);
    expect(await client.lifecycle("examination", "delete", "e1")).toBe(false);
    expect(notices.map((n) => n.title)).toEqual(["There was a problem deleting the measurement.", "Examination couldn't be deleted"]);
    expect(lifecycleFailureNotice("appointment", "trash").title).toBe("Failed to trash appointment");
  });
});

describe("device tile extras", () => {
  it("'Alias change failed: error shown for 1 s'; 'The device alias form sends only a non-empty alias.'", async () => {
    const api = fakeApi({ "device.all": () => [device("SN1")], "device.update": fail(500, "internal_error") });
    const { client, clock } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    expect(await client.devices.rename("SN1", "   ")).toBe(false);
    expect(api.calls).toHaveLength(1);
    expect(await client.devices.rename("SN1", "Room 9")).toBe(false);
    expect(client.devices.aliasError("SN1")).toBe(true);
    clock.advance(ALIAS_ERROR_MS);
    expect(client.devices.aliasError("SN1")).toBe(false);
  });

  it("battery bands and LED come from core/device", async () => {
    const api = fakeApi({
      "device.all": () => [device("SN1", { battery: { vr: { level: 15, charging: false }, clicker: { level: null, charging: false } } })],
    });
    const { client } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    const battery = client.devices.one("SN1")!.battery;
    expect(battery.vr.band).toBe("5-20");
    expect(battery.clicker.band).toBe("empty");
    expect(battery.led).not.toBeNull();
  });

  it("'Appointments field missing in one or more devices.' in the appointment variant", async () => {
    const { appointments: _omit, ...bare } = device("SN2");
    const api = fakeApi({ "device.all": () => [device("SN1"), bare] });
    const { client } = setup(api, "appointments");
    await client.cache.fetch(CacheKey.Devices, {});
    expect(client.lanes.appointmentsMissing()).toBe(true);
  });
});

describe("stand-alone switch (scheduling seed §4 'Stand-alone mode')", () => {
  it("'Stand-alone mode cannot change while another measurement runs' (turning on); 'turning off sends null' whenever it is on", async () => {
    const config = {
      patientId: "p1",
      eye: 0,
      pattern: 1,
      strategy: 3,
      sorsStage: 36,
      stimuliUpdate: 2000,
      stimuliShowtime: 200,
      stimuliSize: 2,
      displayName: "T",
      playSound: false,
      trackGaze: true,
      audioGuide: true,
      tutorial: false,
    } as const;
    const api = fakeApi({
      "device.all": () => [
        device("SN1", { status: "playing", standaloneId: "s1" }),
        device("SN2", { status: "standby", standaloneId: "s2" }),
        device("SN3", { status: "playing" }),
      ],
      "device.standalone": () => null,
    });
    const { client } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    expect(await client.devices.setStandalone("SN3", config)).toBe(false);
    // Off is taken while a run is under way (the headset starts no further repetition) and in standby alike.
    expect(await client.devices.setStandalone("SN1", null)).toBe(true);
    expect(await client.devices.setStandalone("SN2", null)).toBe(true);
    expect(api.calls.at(-1)).toEqual({ endpoint: "device.standalone", input: { query: { deviceSn: "SN2" }, body: null } });
    // Nothing to switch off where it is not on.
    expect(await client.devices.setStandalone("SN3", null)).toBe(false);
  });
});
