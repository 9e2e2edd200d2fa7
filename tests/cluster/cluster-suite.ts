import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../adapters/clock/system-clock.ts";
import { createHttpApi } from "../../adapters/http/index.ts";
import { createLiveSocket, type LiveSocket } from "../../adapters/socket/live-socket.ts";
import { nodeWebSocket } from "../../adapters/socket/node-socket.ts";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import { CacheKey, createClient, type Client } from "../../core/client/index.ts";
import {
  ConnectionStatus,
  DeviceStatus,
  Eye,
  LiveOperation,
  Pattern,
  Showtime,
  SocketState,
  StimuliUpdate,
  StimulusSize,
  Strategy,
} from "../../core/model/enums.ts";
import { StorageKeys } from "../../core/ports.ts";
import { type Fleet, startHeadsets, type VirtualHeadset } from "../../simulator/headset/index.ts";
import { type LocalNats, natsBinary, startNats } from "../../scripts/cluster/nats.ts";
import { type LocalNginx, nginxBinary, startNginx } from "../../scripts/cluster/nginx.ts";
import { type ClusterProcess, consecutivePorts, freePort, startProcesses } from "../../scripts/cluster/processes.ts";
import { DEMO_PASSWORD, liveSocket, login, ok, testStorage } from "../server/harness.ts";

// Issue 17: three Isopter processes (simulator/start.ts, as `npm start` runs it, with DATABASE_URL and their own PORT)
// on one PostgreSQL, with Debian's nginx in front running deploy/nginx/isopter.conf. Headsets are spread over the
// processes (three straight to their addresses, three through nginx), browsers' live sockets too (three clients over
// their real adapters through nginx, one raw live socket on each process). Issue 32: nginx places the sockets that
// name their organisation (their route) on that organisation's process, so the three clients, of one organisation,
// meet there, and so do the headsets that came through nginx once a welcome has told them their route. What one
// process hears reaches the others:
// a queue change, a device command and a live threshold cross processes. Then one process is killed mid-test: its
// headsets reconnect to another and their results arrive ("A process that dies loses nothing"), its browsers
// reconnect after 1 s ("reconnect 1 s", scheduling seed §9) and see the current state.
// Issue 32 §2: "The cluster suite runs on both" buses: the processes talk over LISTEN/NOTIFY on their database
// (cluster.test.ts) or over a nats-server of their own, given as NATS_URL (cluster-nats.test.ts); two files, so
// vitest can run them side by side.

const nginx = nginxBinary();
const postgres = process.env.TEST_DATABASE_URL;
/** Device time runs this much faster: a 24-2 test takes seconds. */
const SPEED = 40;
const DIRECT = ["VR-C001", "VR-C002", "VR-C003"];
const PROXIED = ["VR-C004", "VR-C005", "VR-C006"];

/** Polls `check` until it holds (or throws with `what` after `ms`). */
const eventually = async (what: string, check: () => boolean | Promise<boolean>, ms = 15_000) => {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!(await check())) throw new Error(`not within ${ms / 1000} s: ${what}`);
};

/** A 24-2 test; SORS with 10 locations is over in moments, Normal (full threshold) lasts seconds even at SPEED. */
const measurementBody = (
  patientId: string,
  deviceSn: string,
  displayName: string,
  strategy: typeof Strategy.SORS | typeof Strategy.Normal = Strategy.SORS,
) => ({
  body: {
    patientId,
    deviceSn,
    displayName,
    eye: Eye.Right,
    pattern: Pattern.P24_2,
    strategy,
    sorsStage: 10 as const,
    stimuliUpdate: StimuliUpdate.Ms1000,
    stimuliSize: StimulusSize.III_ADAPTIVE,
    stimuliShowtime: Showtime.Ms200,
    playSound: false,
    trackGaze: false,
    audioGuide: false,
    tutorial: false,
    notes: "",
  },
});

export type ClusterBus = "postgres" | "nats";

const suite = (bus: ClusterBus) => () => {
  let database: Awaited<ReturnType<typeof testStorage>>;
  let nats: LocalNats | undefined;
  let procs: ClusterProcess[] = [];
  let proxy: LocalNginx;
  const fleets: Fleet[] = [];
  const headsets = new Map<string, VirtualHeadset>();
  /** The browsers: a manager, a user and an admin, each a client over the real adapters through nginx. */
  const browsers: Array<{ client: Client; socket: LiveSocket; token: () => string; drops: number }> = [];
  /** A raw live socket on each process (straight to its address). */
  const raw: Array<Awaited<ReturnType<typeof liveSocket>>> = [];
  let patientId: string;
  const token = () => browsers[2]!.token(); // the admin's: the test's own calls

  const deviceId = async (sn: string) => (await ok(proxy.url, "device.all", {}, token())).find((d) => d.deviceSn === sn)!.id;

  beforeAll(async () => {
    database = await testStorage("postgres");
    const databaseUrl = (database.storage as { url: string }).url;
    nats = bus === "nats" ? await startNats() : undefined;
    const busEnv: Record<string, string> = nats ? { NATS_URL: nats.url } : {};
    procs = await startProcesses({
      databaseUrl,
      ports: await consecutivePorts(3),
      envOf: () => ({ DEMO_PASSWORD, HEADSETS: "0", ISOPTER_TRUSTED_PROXIES: "127.0.0.1", ...busEnv }),
    });
    // Each process says which bus it took (start.ts) and shows it on /api/ready.
    for (const p of procs) expect(p.output()).toContain(bus === "nats" ? "Bus: NATS (NATS_URL)" : "Bus: PostgreSQL LISTEN/NOTIFY");
    for (const p of procs)
      expect(((await (await fetch(`${p.url}/api/ready`)).json()) as { data: { bus: { kind: string } } }).data.bus.kind).toBe(bus);
    proxy = await startNginx({ port: await freePort(), ports: procs.map((p) => p.port) });

    // Headsets a manager enrols, as in the Headsets section (the credential shown once).
    const manager = await login(proxy.url, "manager");
    const keys = new Map<string, { credential: string }>();
    for (const sn of [...DIRECT, ...PROXIED])
      keys.set(sn, {
        credential: (await ok(proxy.url, "device.enrol", { body: { deviceSn: sn, secret: "credential" } }, manager)).secret.value,
      });

    // Browsers first: their live sockets name their organisation (the same for all three), so nginx places them on
    // one process, the organisation's.
    for (const username of ["manager", "user", "admin"]) {
      const storage = memoryStorage();
      const socket = createLiveSocket({
        url: `${proxy.url.replace(/^http/, "ws")}/api/ws`,
        storage,
        clock: systemClock,
        create: nodeWebSocket,
      });
      const client = createClient(
        { api: createHttpApi({ apiBase: `${proxy.url}/api/`, storage }), socket, storage, clock: systemClock },
        { variant: "measurements" },
      );
      const browser = { client, socket, token: () => storage.session.get(StorageKeys.session.accessToken)!, drops: 0 };
      socket.onState((s) => s === SocketState.Closed && browser.drops++);
      expect(await client.session.login(username, DEMO_PASSWORD)).toBe(true);
      await eventually(`${username}'s live socket open`, () => client.session.socketState === SocketState.Open);
      await client.cache.fetch(CacheKey.Devices, {});
      browsers.push(browser);
    }
    for (const p of procs) raw.push(await liveSocket(p.url, token()));

    const common = { keys, speed: SPEED, profile: "healthy" as const, faults: {}, log: () => undefined };
    fleets.push(await startHeadsets({ ...common, url: procs.map((p) => p.deviceUrl), serials: DIRECT }));
    fleets.push(await startHeadsets({ ...common, url: `${proxy.url.replace(/^http/, "ws")}/device`, serials: PROXIED }));
    for (const h of fleets.flatMap((f) => f.headsets)) headsets.set(h.deviceSn, h);
    await eventually("every headset connected", () => [...headsets.values()].every((h) => h.connected && h.status !== undefined));

    patientId = (
      await ok(
        proxy.url,
        "patient.register",
        { body: { name: "Cluster Crossing", uniqueId: "CLU-1", gender: 0, lang: "en", birthdate: "1958-04-05" } },
        token(),
      )
    ).id;
  }, 240_000);

  afterAll(async () => {
    for (const f of fleets) await f.stop();
    for (const b of browsers) b.client.dispose();
    for (const r of raw) r.close();
    await Promise.all(procs.map((p) => p.stop("SIGKILL")));
    await proxy?.stop();
    await nats?.stop();
    await database?.drop();
  }, 60_000);

  it("every process sees every headset connected, wherever it is connected", async () => {
    const all = await Promise.all(procs.map((p) => ok(p.url, "device.all", {}, token())));
    for (const list of all)
      for (const sn of [...DIRECT, ...PROXIED])
        expect(list.find((d) => d.deviceSn === sn)?.connection, `${sn} connected`).toBe(ConnectionStatus.Connected);
  });

  /** Each process's open sockets, browsers' and headsets' (its /api/ready). */
  const socketsOn = async () =>
    Promise.all(
      procs.map(
        async (p) =>
          ((await (await fetch(`${p.url}/api/ready`)).json()) as { data: { sockets: { browsers: number; headsets: number } } }).data
            .sockets,
      ),
    );
  /** The process nginx gave the organisation's three browsers (each process also holds one raw live socket). */
  const organisationProcess = async () => {
    const sockets = await socketsOn();
    expect(sockets.map((s) => s.browsers).sort()).toEqual([1, 1, 4]);
    return sockets.findIndex((s) => s.browsers === 4);
  };

  it("nginx places an organisation's sockets on one process: its browsers, and its headsets once they know their route", async () => {
    const home = await organisationProcess();
    const organisationId = (await ok(proxy.url, "organisation.current", {}, token())).id;
    // The welcome told every headset its organisation; those that came through nginx connect again (Wi-Fi lost for a
    // moment) and name it, so nginx sends them where the browsers are. The direct ones stay on their own addresses.
    for (const sn of [...DIRECT, ...PROXIED]) expect(headsets.get(sn)!.route, `${sn}'s route`).toBe(organisationId);
    for (const sn of PROXIED) headsets.get(sn)!.disconnect(200);
    await eventually("the proxied headsets back", () => PROXIED.every((sn) => headsets.get(sn)!.connected));
    await eventually("the proxied headsets on the browsers' process, one direct headset on each", async () =>
      (await socketsOn()).every((s, i) => s.headsets === (i === home ? 1 + PROXIED.length : 1)),
    );
  }, 60_000);

  it("a measurement registered through one process reaches the queue of a headset connected to another", async () => {
    const headset = headsets.get(DIRECT[0]!)!; // on process 1
    const [m] = await ok(procs[1]!.url, "perimetry.register", measurementBody(patientId, DIRECT[0]!, "Queue crossing"), token());
    // Browsers on every process hear of it, and the headset on process 1 has it queued.
    for (const r of raw)
      await r.next((x) => "operation" in x && x.operation === LiveOperation.Insert && JSON.stringify(x).includes(m!.id), 10_000);
    await eventually("the headset on process 1 has it queued", () =>
      headset.queue.some((i) => i.kind === "measurement" && i.measurementId === m!.id),
    );
  }, 60_000);

  it("a device command through one process reaches the headset on another, its answer comes back, and its live thresholds reach every process", async () => {
    const headset = headsets.get(DIRECT[0]!)!; // on process 1, its measurement queued by the test before
    await eventually("ready to start", () => headset.status === DeviceStatus.AwaitMeasurement);
    const since = raw.map((r) => r.messages.length);
    const answer = await ok(
      procs[2]!.url,
      "device.update",
      { query: { id: await deviceId(DIRECT[0]!) }, body: { status: DeviceStatus.Playing } },
      token(),
    );
    expect(answer.deviceSn).toBe(DIRECT[0]);
    await eventually("the headset on process 1 runs the test", () => headset.running !== null);
    // Live thresholds: measurement progress with thresholds, on the raw sockets of processes 2 and 3 and in each client.
    for (const [i, r] of raw.entries())
      await r.next(
        (x) => {
          if (!("operation" in x) || x.operation !== LiveOperation.MeasurementProgress) return false;
          const progress = x.data as unknown as { deviceSn?: string; thresholds?: readonly unknown[] };
          return progress.deviceSn === DIRECT[0] && (progress.thresholds?.length ?? 0) > 0;
        },
        15_000,
        since[i],
      );
    for (const b of browsers)
      await eventually("the client shows live progress", () => (b.client.devices.one(DIRECT[0]!)?.liveProgress ?? null) !== null);
  }, 60_000);

  it("a process killed mid-test: its headsets reconnect to another and upload their results, browsers reconnect and see the current state", async () => {
    // The organisation's process: the three browsers, the headsets that came through nginx and one straight one.
    const v = await organisationProcess();
    const victim = procs[v]!;
    const testing = DIRECT[v]!; // headset i started at process i's address
    const headset = headsets.get(testing)!;
    await eventually(`${testing} idle`, () => headset.status === DeviceStatus.Standby || headset.status === DeviceStatus.AwaitMeasurement);
    const [m] = await ok(proxy.url, "perimetry.register", measurementBody(patientId, testing, "Killed mid-test", Strategy.Normal), token());
    await eventually(`queued on ${testing}`, () => headset.queue.some((i) => i.kind === "measurement" && i.measurementId === m!.id));
    await ok(proxy.url, "device.update", { query: { id: await deviceId(testing) }, body: { status: DeviceStatus.Playing } }, token());
    await eventually(
      `${testing} testing with thresholds on the browsers`,
      () => browsers.every((b) => (b.client.devices.one(testing)?.liveProgress?.thresholds.length ?? 0) > 0),
      20_000,
    );
    const dropsBefore = browsers.map((b) => b.drops);

    // Mid-test: the headset is testing and its result is not stored yet.
    expect(headset.running).not.toBeNull();
    const produced = headset.resultsProduced;
    expect(await victim.stop("SIGKILL")).toBe("SIGKILL");
    procs = procs.filter((p) => p !== victim);

    // The headset notices, reconnects to the next address (process 3) and carries on; its result is stored once.
    await eventually(`${testing} reconnected`, () => headset.connected, 10_000);
    await eventually(
      "the result stored",
      async () => (await ok(proxy.url, "perimetry.get", { query: { id: m!.id } }, token())).result !== null,
      60_000,
    );
    expect(headset.resultsProduced).toBe(produced + 1);
    await eventually("its outbox empty", () => headset.pendingResults === 0);
    for (const h of headsets.values()) expect(h.connected, `${h.deviceSn} connected`).toBe(true);

    // The browsers, whose live sockets were on the killed process, lost them, reconnected through nginx (to the next
    // process on its hash ring, all three together) and read the current state.
    expect(browsers.filter((b, i) => b.drops > dropsBefore[i]!).length).toBe(browsers.length);
    for (const b of browsers) {
      await eventually("socket open again", () => b.socket.state === SocketState.Open);
      await eventually("each browser shows every headset connected with its status", () =>
        [...headsets.values()].every(
          (h) =>
            b.client.devices.one(h.deviceSn)?.connection === ConnectionStatus.Connected &&
            b.client.devices.one(h.deviceSn)?.status === h.status,
        ),
      );
    }
    // A change after the kill reaches every browser, the reconnected one too.
    const other = DIRECT[(v + 1) % DIRECT.length]!;
    const [later] = await ok(proxy.url, "perimetry.register", measurementBody(patientId, other, "After the kill"), token());
    for (const b of browsers)
      await eventually(
        `the new card in ${other}'s lane`,
        () => b.client.devices.one(other)?.device.perimetries.some((x) => x.id === later!.id) ?? false,
      );
    await eventually(`queued on ${other}`, () =>
      headsets.get(other)!.queue.some((i) => i.kind === "measurement" && i.measurementId === later!.id),
    );
  }, 150_000);
};

/** The suite on one bus, or one skipped test saying what is missing. */
export const clusterSuite = (bus: ClusterBus) => {
  const name = `cluster behind nginx (bus: ${bus})`;
  if (!nginx)
    describe(name, () =>
      it.skip("needs Debian's nginx: apt-get install nginx (npm test installs it as root through scripts/system-deps.sh)", () => undefined),
    );
  else if (bus === "nats" && !natsBinary())
    describe(name, () =>
      it.skip("needs Debian's nats-server: apt-get install nats-server (npm test installs it as root through scripts/system-deps.sh)", () =>
        undefined),
    );
  else if (!postgres) describe(name, () => it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));
  else describe(`three processes on one PostgreSQL behind nginx (bus: ${bus})`, suite(bus));
};
