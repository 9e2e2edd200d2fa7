import { afterAll, beforeAll, expect, it } from "vitest";
import { headsetControl } from "../../../simulator/control/headset-control.ts";
import { NO_FAULTS } from "../../../simulator/headset/index.ts";
import type { RunningServer } from "../../../simulator/server/server.ts";
import { login, raw } from "../harness.ts";
import { onBuses, startProcesses, until, type Processes } from "./harness.ts";

// Issue 17 §1: the simulator control routes through any process. Process B runs the virtual headsets (as a cluster's
// start.ts with HEADSETS does), process A none (HEADSETS=0); every call made through A reaches B's headsets.

onBuses("processes: the simulator control calls through any process", (bus) => {
  let p: Processes;
  let a: RunningServer;
  let b: RunningServer;
  const control = headsetControl({ speed: 1, faults: NO_FAULTS, log: () => undefined });
  beforeAll(async () => {
    p = await startProcesses(1, {}, bus);
    a = p.servers[0]!;
    b = await p.start({ simulator: control });
    control.attach(`${b.url.replace(/^http/, "ws")}/device`);
  }, 60_000);
  afterAll(async () => {
    await control.stop();
    await p?.close();
  });

  it("add, list, fault, speed and remove through the process that runs no headsets", async () => {
    const token = await login(a.url, "manager");
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await raw(a.url, method, path, body, token);
      return { status: r.status, data: r.json.data as Record<string, unknown>, responseType: r.json.responseType };
    };
    const added = await call("POST", "dev/simulator/headsets", { count: 2 });
    expect(added.status).toBe(200);
    const serials = (added.data.headsets as Array<{ deviceSn: string }>).map((h) => h.deviceSn);
    expect(serials).toHaveLength(2);
    expect(
      control
        .list()
        .map((h) => h.deviceSn)
        .sort(),
    ).toEqual([...serials].sort());
    await until(
      "both connected to B",
      async () => (await a.db.query("select 1 from device_presence where process_id = $1", [b.ctx.bus.processId])).length === 2,
      20_000,
    );

    const listed = await call("GET", "dev/simulator/headsets");
    expect((listed.data.headsets as Array<{ deviceSn: string }>).map((h) => h.deviceSn).sort()).toEqual([...serials].sort());
    const fault = await call("POST", "dev/simulator/faults", { deviceSn: serials[0], fault: "clicker-lost" });
    expect([fault.status, fault.data.deviceSn]).toEqual([200, serials[0]]);
    const faster = await call("PATCH", "dev/simulator/headsets", { deviceSn: serials[1], speed: 5 });
    expect([faster.status, (faster.data.headsets as Array<{ speed: number }>)[0]!.speed]).toEqual([200, 5]);
    const all = await call("PATCH", "dev/simulator/headsets", { all: true, speed: 2 });
    expect((all.data.headsets as Array<{ speed: number }>).map((h) => h.speed)).toEqual([2, 2]);
    const unknown = await call("POST", "dev/simulator/faults", { deviceSn: "VR-9876", fault: "clicker-lost" });
    expect([unknown.status, unknown.responseType, (unknown.data as { field?: string }).field]).toEqual([404, "not_found", "body.deviceSn"]);
    const removed = await call("DELETE", `dev/simulator/headsets?deviceSn=${serials[0]}`);
    expect([removed.status, removed.data.deviceSn]).toEqual([200, serials[0]]);
    expect(control.list().map((h) => h.deviceSn)).toEqual([serials[1]]);
  }, 60_000);
});
