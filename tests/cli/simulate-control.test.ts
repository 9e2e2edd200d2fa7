import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimulatedProfiles, type SimulatedHeadset } from "../../adapters/http/simulator-control.ts";
import { PROFILE_NAMES } from "../../simulator/perimetry/profiles.ts";
import { headsetControl, type AttachableHeadsetControl } from "../../simulator/control/headset-control.ts";
import { NO_FAULTS, startHeadsets } from "../../simulator/headset/index.ts";
import { DEMO_PASSWORD, headsetKeys, liveSocket, login, ok, raw, startTestServer, type TestServer } from "../server/harness.ts";
import { isopter, tempHome } from "./harness.ts";

// isopter simulate headsets|fault|profile|speed against the simulator wired as simulator/start.ts wires it: the server
// gets the headsets' control, the headsets (VR-0001 from startHeadsets, the rest added by the CLI) connect to its
// device socket. The demo clinic registers VR-0001..VR-0003; only VR-0001 runs at first.

let server: TestServer;
let control: AttachableHeadsetControl;
let home: string;
const env = () => ({ ISOPTER_HOME: home });
const quiet = () => undefined;

/** Polls `probe` until it answers something truthy (the machine is shared: generous limits, no timing asserted). */
async function until<T>(probe: () => Promise<T | undefined | null | false>, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const headsets = async (): Promise<SimulatedHeadset[]> => {
  const run = await isopter(["simulate", "headsets", "list", "--json"], { env: env() });
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { headsets: SimulatedHeadset[] }).headsets;
};

const devices = async () => {
  const run = await isopter(["devices", "list", "--json"], { env: env() });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Array<{ deviceSn: string; alias: string; connection: string }>;
};

beforeAll(async () => {
  control = headsetControl({ speed: 5, faults: NO_FAULTS, log: quiet });
  server = await startTestServer("pglite", { simulator: control });
  const deviceUrl = `${server.url.replace(/^http/, "ws")}/device`;
  control.attach(
    deviceUrl,
    await startHeadsets({
      url: deviceUrl,
      serials: ["VR-0001"],
      keys: await headsetKeys(server, ["VR-0001"]),
      speed: 5,
      faults: NO_FAULTS,
      log: quiet,
    }),
  );
  home = tempHome();
  const run = await isopter(["login", "--server", server.url, "-u", "manager", "--password-stdin"], {
    env: env(),
    stdin: `${DEMO_PASSWORD}\n`,
  });
  expect(run.code, run.stderr).toBe(0);
  await until(async () => (await headsets()).find((h) => h.deviceSn === "VR-0001")?.connected, "VR-0001 to connect");
}, 120_000);

afterAll(async () => {
  await control?.stop();
  await server?.drop();
});

describe("isopter simulate headsets", () => {
  it("lists the running headsets with speed, patients and batteries", async () => {
    const [first] = await headsets();
    expect(first).toMatchObject({ deviceSn: "VR-0001", connected: true, powered: true, speed: 5, profile: null, pendingSettings: null });
    const text = await isopter(["simulate", "headsets"], { env: env() });
    expect(text.stdout).toMatch(/^serial\s+status\s+connected\s+speed\s+patients/);
    expect(text.stdout).toMatch(/VR-0001\s+\S+\s+yes\s+5\s+mix/);
  });

  it("add registers the devices in the organisation; they appear in device.all (and live, in the technician view) and connect", async () => {
    const live = await liveSocket(server.url, await login(server.url, "admin"));
    const run = await isopter(["simulate", "headsets", "add", "3", "--patient-profile", "advanced", "--speed", "10", "--json"], {
      env: env(),
    });
    expect(run.code, run.stderr).toBe(0);
    const added = (JSON.parse(run.stdout) as { headsets: SimulatedHeadset[] }).headsets;
    // VR-0002 and VR-0003 were registered with no headset: reused; VR-0004 is new.
    expect(added.map((h) => h.deviceSn)).toEqual(["VR-0002", "VR-0003", "VR-0004"]);
    expect(added.every((h) => h.speed === 10 && h.profile === "advanced")).toBe(true);
    // Browsers hear of the new device at once (a device insert event with the whole device, as core/client expects).
    const inserted = await live.next((m) => "operation" in m && m.type === "device" && m.operation === "insert");
    expect(inserted).toMatchObject({ deviceSn: "VR-0004", data: { deviceSn: "VR-0004", alias: "Room 4", perimetries: [] } });
    live.close();
    const list = await until(async () => {
      const d = await devices();
      return d.find((x) => x.deviceSn === "VR-0004")?.connection === "CONNECTED" && d;
    }, "VR-0004 to connect");
    expect(list.find((d) => d.deviceSn === "VR-0004")!.alias).toBe("Room 4"); // the seed's aliases (ensureDevices)
    await until(async () => (await headsets()).filter((h) => h.connected).length === 4, "four connected headsets");
  }, 60_000);

  it("fault disconnect: the device goes offline within the 4 s rule and comes back", async () => {
    const run = await isopter(["simulate", "fault", "VR-0002", "disconnect", "--for", "3", "--json"], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ deviceSn: "VR-0002", fault: "disconnect", seconds: 3 });
    // "No heartbeat for 4 s marks it disconnected" (scheduling §4): a dropped socket is noticed sooner still.
    await until(
      async () => (await devices()).find((d) => d.deviceSn === "VR-0002")?.connection === "DISCONNECTED",
      "VR-0002 offline",
      4_000,
    );
    await until(async () => (await devices()).find((d) => d.deviceSn === "VR-0002")?.connection === "CONNECTED", "VR-0002 back", 30_000);
  }, 60_000);

  it("the other faults are accepted with their durations", async () => {
    for (const [fault, seconds] of [
      ["clicker-lost", "2"],
      ["stop-responding", "2"],
      ["battery-empty", "1"],
    ] as const) {
      const run = await isopter(["simulate", "fault", "VR-0003", fault, "--for", seconds, "--json"], { env: env() });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ deviceSn: "VR-0003", fault, seconds: Number(seconds) });
    }
    // The flat battery switches it off; after 1 s it is back on, charging, and connects again.
    await until(
      async () => (await headsets()).find((h) => h.deviceSn === "VR-0003" && h.powered && h.connected && h.battery.vrCharging),
      "VR-0003 back on",
    );
  }, 60_000);

  it("speed applies at once and a profile restarts an idle headset with it; --all reaches every one", async () => {
    const one = await isopter(["simulate", "speed", "VR-0004", "20", "--json"], { env: env() });
    expect(one.code, one.stderr).toBe(0);
    expect((JSON.parse(one.stdout) as { headsets: SimulatedHeadset[] }).headsets).toMatchObject([
      { deviceSn: "VR-0004", speed: 20, pendingSettings: null },
    ]);
    const all = await isopter(["simulate", "profile", "--all", "healthy", "--json"], { env: env() });
    expect(all.code, all.stderr).toBe(0);
    const after = await until(async () => {
      const list = await headsets();
      return list.every((h) => h.profile === "healthy" && h.pendingSettings === null && h.connected) && list;
    }, "every headset healthy and connected");
    expect(after.find((h) => h.deviceSn === "VR-0004")!.speed).toBe(20);
    const mix = await isopter(["simulate", "profile", "VR-0004", "mix"], { env: env() });
    expect(mix.stdout).toBe("VR-0004: speed 20, patients of the clinic mix\n");
  }, 60_000);

  it("a busy headset takes a new speed at once, mid-test, and a new profile only after its test, keeping the result", async () => {
    const token = await login(server.url, "admin");
    const device = (await ok(server.url, "device.all", {}, token)).find((d) => d.deviceSn === "VR-0001")!;
    expect(device.perimetries.length).toBeGreaterThan(0); // the demo clinic queues measurements on VR-0001
    // Slow enough that its test lasts minutes of clock time, well past the commands below.
    const slow = await isopter(["simulate", "speed", "VR-0001", "2", "--json"], { env: env() });
    expect((JSON.parse(slow.stdout) as { headsets: SimulatedHeadset[] }).headsets).toMatchObject([{ speed: 2, pendingSettings: null }]);
    await until(async () => (await headsets()).find((h) => h.deviceSn === "VR-0001" && h.speed === 2 && h.connected), "VR-0001 at speed 2");
    await ok(server.url, "device.update", { query: { id: device.id }, body: { status: "playing" } }, token);
    await until(async () => (await headsets()).find((h) => h.deviceSn === "VR-0001")?.testing, "VR-0001 testing");
    const profile = await isopter(["simulate", "profile", "VR-0001", "advanced", "--json"], { env: env() });
    expect((JSON.parse(profile.stdout) as { headsets: SimulatedHeadset[] }).headsets[0]).toMatchObject({
      speed: 2,
      profile: "healthy",
      testing: true,
      pendingSettings: { speed: 2, profile: "advanced" },
    });
    // The new speed applies at once to the running test (no restart); the waiting profile change carries it.
    const run = await isopter(["simulate", "speed", "VR-0001", "100", "--json"], { env: env() });
    expect((JSON.parse(run.stdout) as { headsets: SimulatedHeadset[] }).headsets[0]).toMatchObject({
      speed: 100,
      profile: "healthy",
      testing: true,
      pendingSettings: { speed: 100, profile: "advanced" },
    });
    const done = await until(
      async () => (await headsets()).find((h) => h.deviceSn === "VR-0001" && h.profile === "advanced"),
      "VR-0001 restarted",
      60_000,
    );
    expect(done).toMatchObject({ speed: 100, pendingSettings: null });
    // The result of the test it was running was stored before the restart.
    const measured = await ok(server.url, "perimetry.get", { query: { id: device.perimetries[0]!.id } }, token);
    expect(measured.result).not.toBeNull();
  }, 90_000);

  it("remove switches a headset off for good; it leaves the list and its device shows disconnected", async () => {
    const run = await isopter(["simulate", "headsets", "remove", "VR-0004", "--json"], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ deviceSn: "VR-0004" });
    expect((await headsets()).map((h) => h.deviceSn)).not.toContain("VR-0004");
    await until(
      async () => (await devices()).find((d) => d.deviceSn === "VR-0004")?.connection === "DISCONNECTED",
      "VR-0004 offline",
      4_000,
    );
    const again = await isopter(["simulate", "headsets", "remove", "VR-0004"], { env: env() });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/No simulated headset VR-0004 is running/);
  }, 30_000);
});

describe("isopter simulate control: refusals", () => {
  it("bad arguments exit 2 naming the argument, before any call", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["simulate", "headsets", "add", "0"], /count: Expected a value between 1 and 100, got 0/],
      [["simulate", "headsets", "add", "two"], /count: Expected number, got "two"/],
      [["simulate", "headsets", "add", "--speed", "0"], /--speed: Expected a value greater than 0, got 0/],
      [["simulate", "headsets", "add", "--patient-profile", "sleepy"], /--patient-profile: Expected "healthy" \| .*got "sleepy"/],
      [["simulate", "fault", "VR-0001", "explode"], /Allowed choices are disconnect, battery-empty, clicker-lost, stop-responding/],
      [["simulate", "fault", "VR-0001", "disconnect", "--for", "-1"], /--for: Expected a value greater than 0, got -1/],
      [["simulate", "speed", "VR-0001", "2000"], /factor: Expected a value less than or equal to 1000, got 2000/],
      [["simulate", "speed", "--all", "VR-0001", "2"], /with --all give only the factor/],
      [["simulate", "speed", "5"], /missing the factor/],
      [["simulate", "profile", "VR-0001", "zombie"], /profile: Expected "healthy" .*got "zombie"/],
    ];
    for (const [args, message] of cases) {
      const run = await isopter(args, { env: { ISOPTER_HOME: tempHome() } });
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toMatch(message);
    }
  });

  it("the server checks the request too: one target exactly, the caller's role, a known serial", async () => {
    const manager = await login(server.url, "admin"); // not "manager": that would end the CLI's session (another session opened)
    const both = await raw(server.url, "PATCH", "dev/simulator/headsets", { deviceSn: "VR-0001", all: true, speed: 2 }, manager);
    expect(both.status).toBe(400);
    expect(both.json).toMatchObject({ responseType: "validation_error", data: { field: "body.deviceSn" } });
    const badCount = await raw(server.url, "POST", "dev/simulator/headsets", { count: 1.5 }, manager);
    expect(badCount.json).toMatchObject({ responseType: "validation_error", data: { field: "body.count" } });
    const unknown = await raw(server.url, "POST", "dev/simulator/faults", { deviceSn: "VR-9999", fault: "disconnect" }, manager);
    expect(unknown.json).toMatchObject({ responseType: "not_found", data: { field: "body.deviceSn" } });
    const user = await login(server.url, "user");
    expect((await raw(server.url, "GET", "dev/simulator/headsets", undefined, user)).status).toBe(403);
    expect((await raw(server.url, "GET", "dev/simulator/headsets")).status).toBe(401);
  });

  it("a user (not admin or manager) is refused with exit 1", async () => {
    const userHome = tempHome();
    await isopter(["login", "--server", server.url, "-u", "user", "--password-stdin"], {
      env: { ISOPTER_HOME: userHome },
      stdin: `${DEMO_PASSWORD}\n`,
    });
    const run = await isopter(["simulate", "headsets", "add"], { env: { ISOPTER_HOME: userHome } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/only admins and managers may control the simulator/);
  });

  it("a server that runs no headsets is exit 5", async () => {
    const plain = await startTestServer("pglite");
    try {
      const plainHome = tempHome();
      await isopter(["login", "--server", plain.url, "-u", "admin", "--password-stdin"], {
        env: { ISOPTER_HOME: plainHome },
        stdin: `${DEMO_PASSWORD}\n`,
      });
      const run = await isopter(["simulate", "headsets", "list"], { env: { ISOPTER_HOME: plainHome } });
      expect(run.code).toBe(5);
      expect(run.stderr).toMatch(/runs no simulated headsets .*start one with `isopter simulate`/);
    } finally {
      await plain.drop();
    }
  }, 60_000);

  it("the wire's profile names are the simulator's", () => {
    expect([...SimulatedProfiles].sort()).toEqual([...PROFILE_NAMES].sort());
  });
});
