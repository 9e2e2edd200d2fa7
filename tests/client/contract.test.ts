import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpApi } from "../../adapters/http/index.ts";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import { systemClock } from "../../adapters/clock/system-clock.ts";
import { createLiveSocket, type LiveSocket } from "../../adapters/socket/live-socket.ts";
import { nodeWebSocket } from "../../adapters/socket/node-socket.ts";
import { CacheKey, createClient, type Client } from "../../core/client/index.ts";
import { ApiError } from "../../core/model/contract/errors.ts";
import { Eye, SocketState } from "../../core/model/enums.ts";
import { measurementConfigWith } from "../../core/rules/defaults.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import { StorageKeys, type Api, type Storage } from "../../core/ports.ts";
import { isLiveEvent, type LiveMessage } from "../../core/model/live.ts";
import { getEntry } from "../../core/client/cache-snapshot.ts";
import { startServer, type RunningServer } from "../../simulator/server/server.ts";
import { ensureDevices, seedDemo } from "../../simulator/server/demo/seed.ts";

// Contract tests: the headless client over the real adapters against the simulator server, in-process on port 0.
// Only the server is started from simulator/; everything else goes over HTTP and the live socket.

const PASSWORD = "contract-pass-1";
let server: RunningServer;
let username: string;
let otherUsername: string;
const opened: Client[] = [];

beforeAll(async () => {
  server = await startServer({ storage: { kind: "pglite", dataDir: undefined }, port: 0 });
  const demo = await seedDemo(server.db, { password: PASSWORD, headsets: 2 });
  await ensureDevices(server.db, 2);
  username = demo.usernames.find((u) => u === "user") ?? demo.usernames[0]!;
  otherUsername = demo.usernames.find((u) => u !== username)!;
});
afterAll(async () => {
  for (const c of opened) c.dispose();
  await server?.close();
});

function open(wrap: (api: Api) => Api = (api) => api): { client: Client; storage: Storage; socket: LiveSocket } {
  const storage = memoryStorage();
  const apiBase = `${server.url}/api/`;
  const socket = createLiveSocket({
    url: `${server.url.replace(/^http/, "ws")}/api/ws`,
    storage,
    clock: systemClock,
    create: nodeWebSocket,
  });
  const client = createClient(
    { api: wrap(createHttpApi({ apiBase, storage })), socket, storage, clock: systemClock },
    { variant: "measurements" },
  );
  opened.push(client);
  return { client, storage, socket };
}

const until = async (what: string, check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("client against the simulator server", () => {
  it("logs in, stores the token, checks it and opens the live socket", async () => {
    const { client, storage } = open();
    expect(await client.session.login(username, PASSWORD)).toBe(true);
    expect(storage.session.get(StorageKeys.session.accessToken)).toBeTruthy();
    await until("token check", () => client.session.state.claims !== null);
    expect(client.session.state.claims!.username).toBe(username);
    await until("socket open", () => client.session.socketState === SocketState.Open);
  });

  it("a wrong password is 'Login failed.' without a session-expired dialog", async () => {
    const { client } = open();
    expect(await client.session.login(username, "wrong-password")).toBe(false);
    expect(client.session.state).toMatchObject({ loginError: "Login failed.", dialog: null });
  });

  it("every cache key loads and decodes with the contract's schemas", async () => {
    const { client } = open();
    await client.session.login(username, PASSWORD);
    const devices = await client.cache.fetch(CacheKey.Devices, {});
    expect(devices.length).toBeGreaterThan(0);
    const patients = await client.cache.fetch(CacheKey.Patients, {});
    const first = (patients as readonly { id: string; name: string }[])[0]!;
    const loads: Array<Promise<unknown>> = [
      client.cache.fetch(CacheKey.PatientSearch, { name: first.name.slice(0, 3), birthdate: null }),
      client.cache.fetch(CacheKey.Measurements, { patientId: first.id }),
      client.cache.fetch(CacheKey.Patients, { id: first.id }),
      client.cache.fetch(CacheKey.TrashedMeasurements, {}),
      client.cache.fetch(CacheKey.TrashedPatients, {}),
      client.cache.fetch(CacheKey.Examinations, { patientId: first.id }),
      client.cache.fetch(CacheKey.AmslerGrid, { patientId: first.id }),
      client.cache.fetch(CacheKey.Templates, {}),
      client.cache.fetch(CacheKey.CurrentOrganisation, {}),
      client.cache.fetch(CacheKey.Appointments, {}),
      client.cache.fetch(CacheKey.TrashedAppointments, {}),
    ];
    const outcomes = await Promise.allSettled(loads);
    const failures = outcomes.flatMap((o, i) => (o.status === "rejected" ? [`#${i}: ${(o.reason as Error).message}`] : []));
    expect(failures).toEqual([]);
    const search = client.cache.get(CacheKey.PatientSearch, { name: first.name.slice(0, 3), birthdate: null })!.data!;
    expect(search.entries.some((p) => p.id === first.id)).toBe(true);
  });

  it("a manager loads the users list", async () => {
    const { client } = open();
    await client.session.login("manager", PASSWORD);
    const users = await client.cache.fetch(CacheKey.Users, {});
    expect(users.length).toBeGreaterThan(0);
    await client.session.logout();
  });

  it("a measurement registered by one client appears in another client's lane through the live socket", async () => {
    const a = open().client;
    const b = open().client;
    await a.session.login(username, PASSWORD);
    await b.session.login(otherUsername, PASSWORD);
    await until("sockets open", () => a.session.socketState === SocketState.Open && b.session.socketState === SocketState.Open);
    const devices = await b.cache.fetch(CacheKey.Devices, {});
    const sn = devices[1]!.deviceSn;
    const before = devices[1]!.perimetries.length;
    const patientId = ((await a.cache.fetch(CacheKey.Patients, {})) as readonly { id: string }[])[0]!.id;
    await new Promise((r) => setTimeout(r, 500)); // the server adds a socket to its hub after checking the token
    const created = await a.api.call("perimetry.register", {
      body: measurementConfigWith({ patientId, deviceSn: sn, displayName: "Contract", eye: Eye.Right }, "older"),
    });
    await until("live insert", () => b.devices.one(sn)!.device.perimetries.length === before + created.length);
    expect(b.devices.one(sn)!.device.perimetries.at(-1)!.id).toBe(created.at(-1)!.id);
  });

  it("a drag is applied, answered with new revisions, and a stale revision is a 409 that keeps the session", async () => {
    const { client } = open();
    await client.session.login(username, PASSWORD);
    const devices = await client.cache.fetch(CacheKey.Devices, {});
    const lane =
      devices.find((d) => d.perimetries.length >= 2 && d.perimetries.every((m: Measurement) => m.isFollowingEye === null)) ??
      devices.find((d) => d.perimetries.length >= 2);
    if (!lane) throw new Error("the demo clinic has no lane with two cards");
    const staleRevision = lane.revision;
    const lastIndex = lane.perimetries.length - 1;
    const plan = await client.lanes.moveMeasurement({
      source: { deviceId: lane.id, index: lastIndex },
      destination: { deviceId: lane.id, index: 0 },
    });
    if (plan.outcome !== "moved") throw new Error(`drag not planned: ${JSON.stringify(plan)}`);
    await until("new revision", () => client.devices.one(lane.deviceSn)!.device.revision !== staleRevision);
    const serverLane = (await client.cache.fetch(CacheKey.Devices, {})).find((d) => d.id === lane.id)!;
    expect(serverLane.perimetries.map((m) => m.id)).toEqual(plan.after.to.items.map((m) => m.id));

    const ids = serverLane.perimetries.map((m) => m.id);
    const stale = await client.api
      .call("device.dragAndDropPerimetry", {
        body: {
          movedPerimetryId: ids[0]!,
          from: { deviceId: lane.id, perimetriesIds: ids, revision: staleRevision },
          to: { deviceId: lane.id, perimetriesIds: ids, revision: staleRevision },
        },
      })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ApiError);
    expect((stale as ApiError).status).toBe(409);
    expect((stale as ApiError).responseType).toBe("device_revision_conflict");
    expect(client.session.state.status).toBe("logged-in");
  });

  it("a drag between lanes costs the dragging client no refetch of the devices: it knows its own drag's live events (issue 22 §4)", async () => {
    let deviceReads = 0;
    const { client, socket } = open((api) => ({
      call: (endpoint, input) => {
        if (endpoint === "device.all") deviceReads += 1;
        return api.call(endpoint, input);
      },
    }));
    const heard: LiveMessage[] = [];
    socket.subscribe((m) => heard.push(m));
    await client.session.login(username, PASSWORD);
    await until("socket open", () => client.session.socketState === SocketState.Open);
    const devices = await client.cache.fetch(CacheKey.Devices, {});
    const [from, to] = [...devices].sort((a, b) => b.perimetries.length - a.perimetries.length);
    if (!from || !to || from.perimetries.length === 0) throw new Error("the demo clinic has no two lanes with a card");
    // The server has this socket in its organisation's hub once it passes on an event of it (an alias set to itself).
    await client.api.call("device.update", { query: { id: to.id }, body: { alias: to.alias || to.deviceSn } });
    await until("the live socket hears the organisation", () =>
      heard.some((m) => isLiveEvent(m) && m.type === "device" && m.operation === "update" && m.data.deviceSn === to.deviceSn),
    );
    await until("no read of the devices under way", () => getEntry(client.cache.snapshot, CacheKey.Devices, {})?.status === "success");
    deviceReads = 0;

    const plan = await client.lanes.moveMeasurement({
      source: { deviceId: from.id, index: from.perimetries.length - 1 },
      destination: { deviceId: to.id, index: 0 },
    });
    if (plan.outcome !== "moved") throw new Error(`drag not planned: ${JSON.stringify(plan)}`);
    const answered = new Map([from, to].map((d) => [d.deviceSn, client.devices.one(d.deviceSn)!.device.revision]));
    // Every event of the drag reached the client: the transfers, the drag event and both lanes at their new revisions.
    await until(
      "the drag's live events",
      () =>
        heard.some((m) => isLiveEvent(m) && m.operation === "device_transfer_in") &&
        heard.some((m) => isLiveEvent(m) && m.type === "drag_and_drop") &&
        [from, to].every((d) =>
          heard.some(
            (m) =>
              isLiveEvent(m) &&
              m.type === "device" &&
              m.operation === "update" &&
              m.data.deviceSn === d.deviceSn &&
              m.data.revision === answered.get(d.deviceSn),
          ),
        ),
    );
    await new Promise((r) => setTimeout(r, 100)); // a refetch the events asked for would have started by now
    expect(deviceReads).toBe(0);
    expect(client.devices.one(to.deviceSn)!.device.perimetries.map((m) => m.id)).toEqual(plan.after.to.items.map((m) => m.id));
    expect(client.devices.one(from.deviceSn)!.device.perimetries.map((m) => m.id)).toEqual(plan.after.from.items.map((m) => m.id));
  });

  it("a token the server cannot verify ends the session with the session-expired dialog", async () => {
    const { client, storage } = open();
    storage.session.set(StorageKeys.session.accessToken, "not-a-token");
    await client.session.start();
    await until("session end", () => client.session.state.dialog !== null);
    expect(client.session.state).toMatchObject({ status: "logged-out", dialog: "session-expired" });
  });

  it("'A same-user login elsewhere shows the another-session-opened dialog'", async () => {
    const first = open().client;
    await first.session.login(otherUsername, PASSWORD);
    await until("socket open", () => first.session.socketState === SocketState.Open);
    await new Promise((r) => setTimeout(r, 500)); // the server adds a socket to its hub after checking the token
    const second = open().client;
    await second.session.login(otherUsername, PASSWORD);
    await until("first session ended", () => first.session.state.dialog !== null);
    expect(first.session.state).toMatchObject({ status: "logged-out", dialog: "another-session-opened" });
    expect(second.session.state.status).toBe("logged-in");
  });

  it("logout ends the session locally", async () => {
    const { client, storage } = open();
    await client.session.login(username, PASSWORD);
    await client.session.logout();
    expect(storage.session.get(StorageKeys.session.accessToken)).toBeNull();
    expect(client.session.state.status).toBe("logged-out");
  });
});
