import { afterAll, beforeAll, expect, it } from "vitest";
import { isLiveEvent } from "../../../core/model/live.ts";
import type { RunningServer } from "../../../simulator/server/server.ts";
import { newId } from "../../../simulator/server/store/ids.ts";
import { fakeHeadset, liveSocket, login, ok } from "../harness.ts";
import { isEvent, onBuses, patientNamed, sleep, startProcesses, until, type Processes } from "./harness.ts";

// Issue 32 §1, routing by interest, on two real processes sharing one PostgreSQL: "A process takes an organisation's
// live events only while a browser of that organisation is connected to it. ... Progress frames go only where a
// browser of their organisation listens. An event nobody listens to costs nothing outside its own process."
// What crosses is read from each process's bus figures (the same ones /api/ready shows).

onBuses("processes: routing by interest", (bus) => {
  let p: Processes;
  let a: RunningServer;
  let b: RunningServer;
  let tokenA: string;
  let tokenB: string;
  beforeAll(async () => {
    p = await startProcesses(2, { settings: { deviceSilenceMs: 60_000 } }, bus);
    [a, b] = p.servers as [RunningServer, RunningServer];
    tokenA = await login(a.url, "manager");
    tokenB = await login(b.url, "user");
  }, 60_000);
  afterAll(() => p?.close());

  const heartbeat = (level: number) => ({
    type: "heartbeat",
    battery: { vr: level, clicker: 50, vrCharging: false, clickerCharging: false },
  });

  it("a headset's frames cross to the other process only while a browser of its organisation is connected there", async () => {
    const [device] = await ok(a.url, "device.all", {}, tokenA);
    const sn = device!.deviceSn;
    const headset = await fakeHeadset(a, sn);
    await sleep(300); // the attach's own messages (interest announcements) are behind us
    const quiet = a.ctx.bus.figures().sent;
    const heardBefore = b.ctx.bus.figures().received;
    for (let level = 1; level <= 20; level++) headset.send(heartbeat(level));
    await sleep(500);
    // Nobody on B watches the organisation: not one message left A, and B heard none.
    expect(a.ctx.bus.figures().sent - quiet).toBe(0);
    expect(b.ctx.bus.figures().received - heardBefore).toBe(0);

    const onB = await liveSocket(b.url, tokenB);
    const watching = a.ctx.bus.figures().sent;
    headset.send(heartbeat(61));
    await onB.next(
      isEvent("device", "update", (e) => e.deviceSn === sn && (e.data as { battery?: { vr: { level: number } } }).battery?.vr.level === 61),
    );
    expect(a.ctx.bus.figures().sent).toBeGreaterThan(watching);

    onB.close();
    await until("B lets the organisation go", () => b.ctx.bus.figures().subjects === 0);
    await sleep(300);
    const after = a.ctx.bus.figures().sent;
    for (let level = 21; level <= 40; level++) headset.send(heartbeat(level));
    await sleep(500);
    expect(a.ctx.bus.figures().sent - after).toBe(0);
    await headset.close();
  });

  it("a headset's subject is held only by the process it is connected to: a queue push from elsewhere reaches it", async () => {
    const devices = await ok(b.url, "device.all", {}, tokenB);
    const sn = devices[1]!.deviceSn;
    const subjectsBefore = [a.ctx.bus.figures().subjects, b.ctx.bus.figures().subjects];
    const headset = await fakeHeadset(a, sn);
    expect([a.ctx.bus.figures().subjects, b.ctx.bus.figures().subjects]).toEqual([subjectsBefore[0]! + 1, subjectsBefore[1]]);
    const pushes = headset.received.filter((m) => m.type === "queue").length;
    await b.ctx.devices.pushQueue(sn);
    await until("the push from B reaches the headset on A", () => headset.received.filter((m) => m.type === "queue").length > pushes);
    await headset.close();
    await until("A lets the headset go", () => a.ctx.bus.figures().subjects === subjectsBefore[0]);
    // Pushing to a headset connected nowhere (once B has heard that A let it go) sends nothing at all.
    await sleep(300);
    const quiet = b.ctx.bus.figures().sent;
    await b.ctx.devices.pushQueue(sn);
    await sleep(200);
    expect(b.ctx.bus.figures().sent - quiet).toBe(0);
  });

  it("tenancy: a browser of another organisation on the other process draws none of this one's events across", async () => {
    const org2 = newId();
    await a.db.transaction(async (tx) => {
      await tx.query(
        "insert into organisations (id, name, multi_tests, market, country, created_at) values ($1, 'Other clinic', false, 'FDA', 'US', $2)",
        [org2, new Date().toISOString()],
      );
      await tx.query("update users set organisation_id = $1 where username = 'user'", [org2]);
    });
    try {
      const other = await liveSocket(b.url, await login(b.url, "user"));
      const ours = await liveSocket(a.url, tokenA);
      await sleep(300);
      const quiet = a.ctx.bus.figures().sent;
      const org = (await ok(a.url, "organisation.current", {}, tokenA)).id;
      for (let i = 0; i < 10; i++) a.ctx.live.publish(org, { type: "patient", operation: "update", data: patientNamed(`only-ours-${i}`) });
      await ours.next(isEvent("patient", "update", (e) => (e.data as { id: string }).id === "only-ours-9"));
      await sleep(300);
      expect(a.ctx.bus.figures().sent - quiet).toBe(0);
      expect(other.messages.filter(isLiveEvent)).toEqual([]);
      other.close();
      ours.close();
    } finally {
      await a.db.query(
        "update users set organisation_id = (select organisation_id from users where username = 'manager') where username = 'user'",
      );
    }
  });
});
