import { afterAll, beforeAll, expect, it } from "vitest";
import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy } from "../../../core/model/enums.ts";
import type { LiveEvent } from "../../../core/model/live.ts";
import { startHeadsets } from "../../../simulator/headset/index.ts";
import type { RunningServer } from "../../../simulator/server/server.ts";
import { newId } from "../../../simulator/server/store/ids.ts";
import { credentialFor, fakeHeadset, liveSocket, login, ok } from "../harness.ts";
import { isEvent, onBuses, sleep, startProcess, startProcesses, until, type Processes } from "./harness.ts";

// Issue 17 §1-3: a process of the cluster is `simulator/start.ts` with DATABASE_URL and its own PORT (HEADSETS=0: no
// virtual headsets). When it is killed, another process notices: its headsets are shown disconnected within the seeds'
// 4 s ("No heartbeat for 4 s marks it disconnected", scheduling §4); a headset that reconnects to another process
// uploads its outbox there and nothing is lost.

onBuses("processes: a process killed", (bus) => {
  let p: Processes;
  let a: RunningServer;
  beforeAll(async () => {
    p = await startProcesses(1, { settings: { deviceSilenceMs: 60_000 } }, bus);
    a = p.servers[0]!;
  }, 60_000);
  afterAll(() => p?.close());

  it("its headsets are shown disconnected by another process within 4 s; a headset moving on uploads its outbox there", async () => {
    const token = await login(a.url, "manager");
    const [d1, d2] = await ok(a.url, "device.all", {}, token);
    const c = await startProcess(p.url, p.env);
    try {
      // HEADSETS=0: the process runs no virtual headsets.
      await sleep(500);
      expect((await a.db.query("select device_sn from device_presence")).length).toBe(0);
      const staff = await login(c.url, "user");
      expect((await ok(c.url, "device.all", {}, staff)).length).toBeGreaterThan(0);

      const browser = await liveSocket(a.url, token);
      const cAsServer = { ...a, url: c.url };
      await fakeHeadset(cAsServer, d1!.deviceSn, { credential: await credentialFor(a, d1!.deviceSn) });
      await browser.next(
        isEvent(
          "connection",
          "update",
          (e) => e.deviceSn === d1!.deviceSn && (e.data as { connection: string }).connection === "CONNECTED",
        ),
      );

      // A virtual headset in stand-alone mode on c; when c goes it tries a dead address, then a, so its results wait.
      const patient = await ok(
        a.url,
        "patient.register",
        { body: { name: "Moving On", uniqueId: `U-${newId().slice(0, 8)}`, gender: 0, lang: "en", birthdate: "1950-01-01" } },
        token,
      );
      const ws = (url: string) => `${url.replace(/^http/, "ws")}/device`;
      const fleet = await startHeadsets({
        url: [ws(c.url), "ws://127.0.0.1:9/device", ws(a.url)],
        serials: [d2!.deviceSn],
        keys: new Map([[d2!.deviceSn, { credential: await credentialFor(a, d2!.deviceSn) }]]),
        speed: 60,
        // Healthy: the patient's id is random, and about one in twenty-five draws an advanced defect whose long runs of
        // unseen stimuli pause the test for a silent patient (nobody here resumes it).
        profile: "healthy",
        log: () => undefined,
      });
      const headset = fleet.headsets[0]!;
      try {
        await until(
          "the headset connected to c",
          async () => (await a.db.query("select 1 from device_presence where device_sn = $1", [d2!.deviceSn])).length === 1,
          20_000,
        );
        await ok(
          a.url,
          "device.standalone",
          {
            query: { deviceSn: d2!.deviceSn },
            body: {
              patientId: patient.id,
              displayName: "Kill",
              eye: Eye.Right,
              pattern: Pattern.P10_2,
              strategy: Strategy.Supra,
              stimuliUpdate: StimuliUpdate.Ms2000,
              stimuliSize: StimulusSize.III,
              stimuliShowtime: Showtime.Ms200,
              sorsStage: 36,
              playSound: false,
              trackGaze: true,
              audioGuide: true,
              tutorial: false,
            },
          },
          token,
        );
        await until(
          "a first stand-alone result stored through c",
          () => headset.resultsProduced > 0 && headset.pendingResults === 0,
          60_000,
        );

        let waited = 0;
        const watch = setInterval(() => (waited = Math.max(waited, headset.pendingResults)), 20);
        const mark = browser.messages.length;
        c.child.kill("SIGKILL");
        const killedAt = Date.now();
        const gone = await browser.next(
          isEvent(
            "connection",
            "update",
            (e) => e.deviceSn === d1!.deviceSn && (e.data as { connection: string }).connection === "DISCONNECTED",
          ),
          10_000,
          mark,
        );
        const noticedMs = Date.now() - killedAt;
        expect((gone as LiveEvent).deviceSn).toBe(d1!.deviceSn);
        const listed = (await ok(a.url, "device.all", {}, token)).find((d) => d.deviceSn === d1!.deviceSn)!;
        expect([listed.connection, listed.status]).toEqual(["DISCONNECTED", "notconnected"]);

        await until("the headset connected to a", () => headset.connected && headset.pendingResults === 0 && waited > 0, 60_000);
        clearInterval(watch);
        await browser.next(
          isEvent(
            "connection",
            "update",
            (e) => e.deviceSn === d2!.deviceSn && (e.data as { connection: string }).connection === "CONNECTED",
          ),
          5000,
          mark,
        );
        await ok(a.url, "device.standalone", { query: { deviceSn: d2!.deviceSn }, body: null }, token);
        await until("the last run uploaded", () => headset.pendingResults === 0);
        const stored = (
          await a.db.query<{ n: number }>("select count(*)::int as n from standalone_results where device_sn = $1", [d2!.deviceSn])
        )[0]!.n;
        console.log(
          `[processes kill] headset shown disconnected ${noticedMs} ms after the kill; ${waited} results waited in the moving headset's outbox; ${headset.resultsProduced} produced, ${stored} stored`,
        );
        expect(noticedMs).toBeLessThanOrEqual(4_000);
        expect(stored).toBe(headset.resultsProduced);
      } finally {
        await fleet.stop();
      }
      browser.close();
    } finally {
      c.child.kill("SIGKILL");
    }
  }, 120_000);
});
