import { describe, expect, it } from "vitest";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import {
  CacheKey,
  createClient,
  ERROR_FLASH_MS,
  LOGIN_SERVER_ERROR,
  socketStateMessage,
  type ClientEvents,
} from "../../core/client/index.ts";
import { ApiError } from "../../core/model/contract/errors.ts";
import { SocketState } from "../../core/model/enums.ts";
import { StorageKeys } from "../../core/ports.ts";
import { CANNOT_DROP_NOTICE, REORDER_FAILED_NOTICE } from "../../core/scheduling/index.ts";
import { appointment, device, examination, measurement, progress, result } from "./fixtures.ts";
import { fail, fakeApi, fakeSocket, settle, type FakeApi } from "./fakes.ts";

const claims = { role: "user", username: "ann", email: "ann@clinic.example", exp: 4_000_000_000 };

function setup(api: FakeApi = fakeApi(), token: string | null = "tok") {
  const clock = createVirtualClock(1_700_000_000_000);
  const storage = memoryStorage();
  if (token) storage.session.set(StorageKeys.session.accessToken, token);
  const socket = fakeSocket();
  const client = createClient({ api, socket, storage, clock }, { variant: "measurements" });
  const notices: ClientEvents["notice"][] = [];
  const navigations: string[] = [];
  client.events.on("notice", (n) => notices.push(n));
  client.events.on("navigate", (n) => navigations.push(n.to));
  return { clock, storage, socket, client, api, notices, navigations };
}

describe("session (accounts seed §4 'Login', 'Session')", () => {
  it("login stores the token, goes home and opens the live socket", async () => {
    const api = fakeApi({ login: () => ({ accessToken: "new" }), checkToken: () => claims });
    const { client, storage, socket, navigations } = setup(api, null);
    expect(await client.session.login("ann", "pw")).toBe(true);
    expect(storage.session.get(StorageKeys.session.accessToken)).toBe("new");
    expect(client.session.state.status).toBe("logged-in");
    expect(navigations).toEqual(["home"]);
    expect(socket.state).toBe(SocketState.Open);
    await settle();
    expect(client.session.state.claims).toEqual(claims);
  });

  it("a failed login shows 'Login failed.' and clears the token; editing clears the error", async () => {
    const { client, storage } = setup(fakeApi({ login: fail(401, "invalid_credentials") }), "stale");
    expect(await client.session.login("ann", "bad")).toBe(false);
    expect(client.session.state).toMatchObject({ status: "logged-out", loginError: "Login failed.", dialog: null });
    expect(storage.session.get(StorageKeys.session.accessToken)).toBeNull();
    client.session.clearLoginError();
    expect(client.session.state.loginError).toBeNull();
  });

  it("a login the server fails (5xx, or no answer) says 'error occurred during login', not the credentials' text", async () => {
    for (const failure of [fail(500, "internal_error"), fail(503, "unavailable"), fail(0, "network")]) {
      const { client } = setup(fakeApi({ login: failure }), null);
      expect(await client.session.login("ann", "pw")).toBe(false);
      expect(client.session.state.loginError).toBe(LOGIN_SERVER_ERROR);
    }
    const { client } = setup(fakeApi({ login: fail(429, "rate_limited") }), null);
    await client.session.login("ann", "pw");
    expect(client.session.state.loginError).toBe("Login failed.");
  });

  it("'Logout calls the server; local logout happens regardless of outcome.'", async () => {
    const { client, storage, socket, api, navigations } = setup(fakeApi({ logout: fail(500, "internal_error"), checkToken: () => claims }));
    await client.session.start();
    await client.session.logout();
    expect(api.calls.map((c) => c.endpoint)).toContain("logout");
    expect(storage.session.get(StorageKeys.session.accessToken)).toBeNull();
    expect(client.session.state.status).toBe("logged-out");
    expect(socket.state).toBe(SocketState.Closed);
    expect(navigations).toEqual(["login"]);
  });

  it("'a missing access token triggers logout'; 'The token check runs whenever a token is present.'", async () => {
    const none = setup(fakeApi(), null);
    await none.client.session.start();
    expect(none.client.session.state.status).toBe("logged-out");
    expect(none.api.calls).toEqual([]);
    const some = setup(fakeApi({ checkToken: () => claims }));
    await some.client.session.start();
    expect(some.api.calls.map((c) => c.endpoint)).toEqual(["checkToken"]);
    expect(some.client.session.state.claims).toEqual(claims);
  });

  it("'any 4xx response above 400 and below 500 shows the session-expired dialog and redirects to /login'", async () => {
    const api = fakeApi({ checkToken: () => claims, "device.all": fail(401, "unauthorized") });
    const { client, storage, navigations } = setup(api);
    await client.session.start();
    await expect(client.cache.fetch(CacheKey.Devices, {})).rejects.toBeInstanceOf(ApiError);
    expect(client.session.state).toMatchObject({ status: "logged-out", dialog: "session-expired" });
    expect(storage.session.get(StorageKeys.session.accessToken)).toBeNull();
    expect(navigations).toEqual(["login"]);
    client.session.dismissDialog();
    expect(client.session.state.dialog).toBeNull();
  });

  it("a 400 or a 500 does not end the session", async () => {
    const api = fakeApi({ checkToken: () => claims, "device.all": fail(500, "internal_error"), "user.all": fail(400, "validation_error") });
    const { client } = setup(api);
    await client.session.start();
    await expect(client.cache.fetch(CacheKey.Devices, {})).rejects.toBeInstanceOf(ApiError);
    await expect(client.cache.fetch(CacheKey.Users, {})).rejects.toBeInstanceOf(ApiError);
    expect(client.session.state.status).toBe("logged-in");
  });

  it("'A token-expired or token-verification-error event' ends the session; 'A same-user login elsewhere shows the another-session-opened dialog'", async () => {
    for (const [type, dialog] of [
      ["token_expired", "session-expired"],
      ["token_verification_error", "session-expired"],
      ["another_session_opened", "another-session-opened"],
    ] as const) {
      const { client, socket, navigations } = setup(fakeApi({ checkToken: () => claims }));
      await client.session.start();
      socket.receive({ type });
      expect(client.session.state).toMatchObject({ status: "logged-out", dialog });
      expect(navigations).toEqual(["login"]);
      expect(socket.state).toBe(SocketState.Closed);
    }
  });
});

describe("live events through the socket", () => {
  it("patch the caches, show 'measurement ready', and send home a viewer of a trashed patient", async () => {
    const api = fakeApi({ checkToken: () => claims, "device.all": () => [device("SN1", { perimetries: [measurement("m1")] })] });
    const { client, socket, notices, navigations } = setup(api);
    await client.session.start();
    await client.cache.fetch(CacheKey.Devices, {});
    socket.receive({ type: "measurement", operation: "measurement_result_ready", data: measurement("m1", { result: result("m1", "p1") }) });
    expect(client.devices.one("SN1")!.device.perimetries).toEqual([]);
    expect(notices[0]).toMatchObject({ title: "measurement ready", durationMs: 10_000 });
    client.patients.setViewed("p1");
    socket.receive({ type: "patient", operation: "trash", data: { id: "p1" } });
    expect(navigations).toEqual(["home"]);
  });

  it("track live progress and running tests; an abnormal close clears them and the reopen refetches devices", async () => {
    let fetches = 0;
    const api = fakeApi({
      checkToken: () => claims,
      "device.all": () => (fetches++, [device("SN1", { status: "playing", perimetries: [measurement("m1"), measurement("m2")] })]),
    });
    const { client, socket, clock } = setup(api);
    await client.session.start();
    await client.cache.fetch(CacheKey.Devices, {});
    socket.receive({
      type: "measurement",
      operation: "measurement_progress",
      data: { deviceSn: "SN1", ...progress({ perimetryId: "m1" }) },
    });
    const view = client.devices.one("SN1")!;
    expect(view).toMatchObject({ testRunning: true, runningId: "m1", gazeCalibration: "passed", stopDisabled: false });
    expect(view.playControl).toEqual({ kind: "pause", disabled: false });
    socket.drop();
    expect(client.devices.one("SN1")).toMatchObject({ liveProgress: null, connection: "DISCONNECTED", testRunning: false });
    expect(socketStateMessage(client.session.socketState)).toBe("Live updates disconnected");
    socket.reopen();
    await settle();
    expect(fetches).toBe(2);
    clock.advance(10_000);
  });
});

describe("a response older than the live events that arrived while it was on its way", () => {
  /** device/all answers with what the server held when it read, later than the call returns. */
  function slowDevices(lanes: () => ReturnType<typeof measurement>[]) {
    const pending: Array<() => void> = [];
    const api = fakeApi({
      checkToken: () => claims,
      "device.all": () => {
        const read = [device("SN1", { perimetries: lanes() })];
        return new Promise((resolve) => pending.push(() => resolve(read)));
      },
    });
    return { api, answer: () => pending.shift()!() };
  }

  it("keeps a measurement registered while the lanes were being read (the insert event is replayed onto them)", async () => {
    const { api, answer } = slowDevices(() => [measurement("m1")]);
    const { client, socket } = setup(api);
    await client.session.start();
    const loading = client.cache.fetch(CacheKey.Devices, {});
    socket.receive({ type: "measurement", operation: "insert", data: measurement("m2", { deviceSn: "SN1" }) });
    answer();
    await loading;
    expect(client.devices.one("SN1")!.device.perimetries!.map((m) => m.id)).toEqual(["m1", "m2"]);
  });

  it("a refetch asked for while the lanes are being read reads them once more afterwards", async () => {
    let server = [measurement("m1")];
    const { api, answer } = slowDevices(() => server);
    const { client } = setup(api);
    await client.session.start();
    const first = client.cache.fetch(CacheKey.Devices, {});
    server = [measurement("m2")]; // someone else moved the cards after the first read
    const refetched = client.cache.refetch(CacheKey.Devices);
    answer();
    await first;
    await settle();
    answer();
    await refetched;
    expect(api.calls.filter((c) => c.endpoint === "device.all")).toHaveLength(2);
    expect(client.devices.one("SN1")!.device.perimetries!.map((m) => m.id)).toEqual(["m2"]);
  });
});

describe("lane commands (scheduling seed §4 'Drag and drop of measurements')", () => {
  const lanes = () => [
    device("SN1", { revision: 3, perimetries: [measurement("m1"), measurement("m2", { isFollowingEye: "m1" }), measurement("m3")] }),
    device("SN2", { revision: 8, perimetries: [measurement("x1", { deviceSn: "SN2" })] }),
  ];
  const order = (client: ReturnType<typeof createClient>, sn: string) => client.devices.one(sn)!.device.perimetries.map((m) => m.id);

  it("moves optimistically, sends the orders with the revisions, and takes the new revisions", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const api = fakeApi({
      "device.all": lanes,
      "device.dragAndDropPerimetry": async () => {
        await gate;
        return { from: { deviceId: "dev-SN1", revision: 4 }, to: { deviceId: "dev-SN2", revision: 9 } };
      },
    });
    const { client } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    const pending = client.lanes.moveMeasurement({
      source: { deviceId: "dev-SN1", index: 0 },
      destination: { deviceId: "dev-SN2", index: 1 },
    });
    expect(order(client, "SN1")).toEqual(["m3"]);
    expect(order(client, "SN2")).toEqual(["x1", "m1", "m2"]);
    expect(api.calls.at(-1)!.input.body).toEqual({
      movedPerimetryId: "m1",
      from: { deviceId: "dev-SN1", perimetriesIds: ["m3"], revision: 3 },
      to: { deviceId: "dev-SN2", perimetriesIds: ["x1", "m1", "m2"], revision: 8 },
    });
    release();
    await pending;
    expect(client.devices.one("SN1")!.device.revision).toBe(4);
    expect(client.devices.one("SN2")!.device.revision).toBe(9);
  });

  it("a read of the devices under way at the drop, answered with the lists from before it, is read again once the drop is answered", async () => {
    const after = () => [
      device("SN1", { revision: 4, perimetries: [measurement("m3")] }),
      device("SN2", {
        revision: 9,
        perimetries: [measurement("x1", { deviceSn: "SN2" }), measurement("m1"), measurement("m2", { isFollowingEye: "m1" })],
      }),
    ];
    let stored = lanes();
    let holdNextRead = false;
    let releaseRead!: () => void;
    const api = fakeApi({
      "device.all": async () => {
        const answer = stored;
        if (holdNextRead) {
          holdNextRead = false;
          await new Promise<void>((r) => (releaseRead = r));
        }
        return answer;
      },
      "device.dragAndDropPerimetry": async () => {
        stored = after();
        return { from: { deviceId: "dev-SN1", revision: 4 }, to: { deviceId: "dev-SN2", revision: 9 } };
      },
    });
    const { client } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    holdNextRead = true;
    const staleRead = client.cache.fetch(CacheKey.Devices, {});
    await client.lanes.moveMeasurement({ source: { deviceId: "dev-SN1", index: 0 }, destination: { deviceId: "dev-SN2", index: 1 } });
    releaseRead();
    await staleRead;
    await settle();
    expect(api.calls.filter((c) => c.endpoint === "device.all")).toHaveLength(3);
    expect(order(client, "SN1")).toEqual(["m3"]);
    expect(order(client, "SN2")).toEqual(["x1", "m1", "m2"]);
    expect(client.devices.one("SN2")!.device.revision).toBe(9);
  });

  it("a refused drop shows 'cannot drop here' and sends nothing", async () => {
    const api = fakeApi({ "device.all": lanes });
    const { client, notices } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    const plan = await client.lanes.moveMeasurement({
      source: { deviceId: "dev-SN2", index: 0 },
      destination: { deviceId: "dev-SN1", index: 1 },
    });
    expect(plan.outcome).toBe("refused");
    expect(notices).toEqual([CANNOT_DROP_NOTICE]);
    expect(api.calls.map((c) => c.endpoint)).toEqual(["device.all"]);
  });

  it("'On conflict (HTTP 409 or error type device_revision_conflict) devices are refetched.'", async () => {
    const api = fakeApi({ "device.all": lanes, "device.dragAndDropPerimetry": fail(409, "device_revision_conflict") });
    const { client } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    await client.lanes.moveMeasurement({ source: { deviceId: "dev-SN1", index: 2 }, destination: { deviceId: "dev-SN1", index: 0 } });
    await settle();
    expect(api.calls.filter((c) => c.endpoint === "device.all")).toHaveLength(2);
    expect(order(client, "SN1")).toEqual(["m1", "m2", "m3"]);
    expect(client.session.state.dialog).toBeNull();
  });

  it("'On any other failure the affected devices flash an error state for 500 ms and then refetch.'", async () => {
    const api = fakeApi({ "device.all": lanes, "device.dragAndDropPerimetry": fail(500, "internal_error") });
    const { client, clock } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    await client.lanes.moveMeasurement({ source: { deviceId: "dev-SN1", index: 2 }, destination: { deviceId: "dev-SN2", index: 0 } });
    expect([...client.lanes.flashing].sort()).toEqual(["dev-SN1", "dev-SN2"]);
    expect(api.calls.filter((c) => c.endpoint === "device.all")).toHaveLength(1);
    clock.advance(ERROR_FLASH_MS);
    await settle();
    expect(client.lanes.flashing.size).toBe(0);
    expect(api.calls.filter((c) => c.endpoint === "device.all")).toHaveLength(2);
    expect(order(client, "SN1")).toEqual(["m1", "m2", "m3"]);
  });

  it("appointment drag sends {movedAppointmentId, from:{deviceId, appointmentsIds}, to:{...}}", async () => {
    const api = fakeApi({
      "device.all": () => [device("SN1", { appointments: [appointment("a1"), appointment("a2")] }), device("SN2")],
      "device.dragAndDropAppointment": () => ({ from: { deviceId: "dev-SN1", revision: 2 }, to: { deviceId: "dev-SN2", revision: 2 } }),
    });
    const { client } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    await client.lanes.moveAppointment({ source: { deviceId: "dev-SN1", index: 1 }, destination: { deviceId: "dev-SN2", index: 0 } });
    expect(api.calls.at(-1)!.input.body).toEqual({
      movedAppointmentId: "a2",
      from: { deviceId: "dev-SN1", appointmentsIds: ["a1"] },
      to: { deviceId: "dev-SN2", appointmentsIds: ["a2"] },
    });
  });
});

describe("examination reorder (scheduling seed §4)", () => {
  const a1 = appointment("a1", { examinations: [examination("e1"), examination("e2"), examination("e3")] });

  it("'Optimistic. On failure: notice ..., a 500 ms wiggle, then revert.'", async () => {
    const api = fakeApi({ "appointment.all": () => [a1], "appointment.reorderExaminations": fail(500, "internal_error") });
    const { client, clock, notices } = setup(api);
    await client.cache.fetch(CacheKey.Appointments, {});
    const examIds = () => (client.cache.get(CacheKey.Appointments, {})!.data as (typeof a1)[])[0]!.examinations.map((e) => e.id);
    const pending = client.lanes.reorderExaminations("a1", 0, 2);
    expect(examIds()).toEqual(["e2", "e3", "e1"]);
    expect(api.calls.at(-1)!.input).toEqual({ query: { id: "a1" }, body: { newExaminationsIds: ["e2", "e3", "e1"] } });
    expect(await pending).toBe(false);
    expect(notices).toEqual([REORDER_FAILED_NOTICE]);
    expect(client.lanes.wiggling.has("a1")).toBe(true);
    expect(examIds()).toEqual(["e2", "e3", "e1"]);
    clock.advance(500);
    expect(client.lanes.wiggling.has("a1")).toBe(false);
    expect(examIds()).toEqual(["e1", "e2", "e3"]);
  });

  it("'Dragging is disabled with a single examination.'", async () => {
    const api = fakeApi({ "appointment.all": () => [appointment("a1", { examinations: [examination("e1")] })] });
    const { client } = setup(api);
    await client.cache.fetch(CacheKey.Appointments, {});
    expect(await client.lanes.reorderExaminations("a1", 0, 1)).toBe(false);
    expect(api.calls).toHaveLength(1);
  });
});

describe("device controls (scheduling seed §4 'Controls')", () => {
  it("confirm, then 'command sent' while loading; the dialog resets when the device status changes", async () => {
    const api = fakeApi({ "device.all": () => [device("SN1", { status: "playing" })], "device.update": () => device("SN1") });
    const { client, socket } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    client.devices.askForStatus("SN1", "paused");
    expect(client.devices.commandDialog("SN1")).toMatchObject({ phase: "confirm", wanted: "paused" });
    await client.devices.confirmCommand("SN1");
    expect(client.devices.commandDialog("SN1")).toMatchObject({ phase: "sending", text: "command sent" });
    expect(api.calls.at(-1)!.input).toEqual({ query: { id: "dev-SN1" }, body: { status: "paused" } });
    socket.receive({ type: "device", operation: "update", data: { deviceSn: "SN1", status: "paused" } });
    expect(client.devices.commandDialog("SN1")).toBeUndefined();
    expect(client.devices.one("SN1")!.playControl).toEqual({ kind: "resume" });
  });

  it("a heartbeat repeating the same status keeps the dialog open: only a status change resets it", async () => {
    const api = fakeApi({ "device.all": () => [device("SN1", { status: "playing" })] });
    const { client, socket } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    socket.receive({ type: "device", operation: "update", data: { deviceSn: "SN1", status: "playing" } });
    client.devices.askForStatus("SN1", "paused");
    socket.receive({ type: "device", operation: "update", data: { deviceSn: "SN1", status: "playing" } });
    expect(client.devices.commandDialog("SN1")).toMatchObject({ phase: "confirm", wanted: "paused" });
    socket.receive({ type: "device", operation: "update", data: { deviceSn: "SN1", status: "paused" } });
    expect(client.devices.commandDialog("SN1")).toBeUndefined();
  });

  it("a failed command shows the 'use the controller or clicker' error", async () => {
    const api = fakeApi({ "device.all": () => [device("SN1", { status: "playing" })], "device.update": fail(409, "device_not_connected") });
    const { client, notices } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    client.devices.askForStatus("SN1", "stopped");
    await client.devices.confirmCommand("SN1");
    expect(client.devices.commandDialog("SN1")).toBeUndefined();
    expect(notices[0]!.hint).toBe("Use the controller or clicker");
    expect(client.session.state.dialog).toBeNull();
  });
});

describe("scheduling variant", () => {
  it("'A feature flag chooses between them': the organisation's multi-tests flag switches the lanes to appointments and is kept in the v2 scheduling key", async () => {
    let multiTests = true;
    const api = fakeApi({ "organisation.current": () => ({ id: "o1", name: "Clinic", multiTests, market: "MDR", country: "DE" }) });
    const storage = memoryStorage();
    storage.session.set(StorageKeys.session.accessToken, "tok");
    const client = createClient({ api, socket: fakeSocket(), storage, clock: createVirtualClock(0) });
    expect(client.lanes.variant).toBe("measurements");
    await client.cache.fetch(CacheKey.CurrentOrganisation, {});
    expect(client.lanes.variant).toBe("appointments");
    expect(storage.local.get(StorageKeys.local.schedulingV2)).toBe("true");
    multiTests = false;
    await client.cache.refetch(CacheKey.CurrentOrganisation);
    expect(client.lanes.variant).toBe("measurements");
  });
});

describe("marks in local storage", () => {
  it("pinned lanes come first and persist", async () => {
    const api = fakeApi({ "device.all": () => [device("SN1"), device("SN2"), device("SN3")] });
    const { client, storage } = setup(api);
    await client.cache.fetch(CacheKey.Devices, {});
    client.marks.togglePin("SN3");
    expect(client.devices.list().map((v) => v.device.deviceSn)).toEqual(["SN3", "SN1", "SN2"]);
    expect(storage.local.get(StorageKeys.local.pinnedSwimlanes)).toBe('["SN3"]');
  });

  it("'Baseline: at most one per eye; toggling the same id clears it'; 'marking it reliable again also clears a baseline mark'", () => {
    const { client, storage } = setup();
    client.marks.toggleBaseline(1, "L1");
    client.marks.toggleBaseline(0, "R1");
    expect(client.marks.baseline).toEqual(["L1", "R1"]);
    client.marks.toggleBaseline(1, "L2");
    expect(client.marks.baseline).toEqual(["L2", "R1"]);
    client.marks.toggleBaseline(1, "L2");
    expect(client.marks.baseline).toEqual([null, "R1"]);
    client.marks.setUnreliable("R1", true);
    expect(client.marks.unreliable).toEqual(["R1"]);
    client.marks.setUnreliable("R1", false);
    expect(client.marks.unreliable).toEqual([]);
    expect(client.marks.baseline).toEqual([null, null]);
    storage.local.set(StorageKeys.local.baselineResultIds, "{broken");
    expect(client.marks.baseline).toEqual([null, null]);
  });
});
