import { Result } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpApi } from "../../adapters/http/index.ts";
import { systemClock } from "../../adapters/clock/system-clock.ts";
import { createLiveSocket } from "../../adapters/socket/live-socket.ts";
import { nodeWebSocket } from "../../adapters/socket/node-socket.ts";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import { CacheKey, createClient, type Client } from "../../core/client/index.ts";
import { emptySnapshot } from "../../core/client/cache-snapshot.ts";
import type { ClientEvents } from "../../core/client/events.ts";
import { reduceLiveEvent } from "../../core/client/live-reducer.ts";
import {
  DeviceStatus as S,
  Eye,
  LiveEventType,
  LiveOperation,
  Pattern,
  Showtime,
  SocketState,
  StimuliUpdate,
  StimulusSize,
  Strategy,
} from "../../core/model/enums.ts";
import { decodeLiveEvent } from "../../core/model/live.ts";
import { VirtualHeadset } from "../../simulator/headset/headset.ts";
import { wsConnector } from "../../simulator/headset/ws-connector.ts";
import { credentialFor, DEMO_PASSWORD, login, ok, startTestServer, type TestServer } from "../server/harness.ts";
import { TimePump } from "../headset/time-pump.ts";

// Scheduling seed §8, error catalogue: "Clicker disconnected | test stopped message". The headset tells the server
// (clickerDisconnected with the test's id), the server tells the organisation's browsers (live event device /
// clicker_disconnected), and the client emits `clickerDisconnected` for the technician view, before the status stopped.

type Stopped = ClientEvents["clickerDisconnected"];

describe("'Clicker disconnected | test stopped message' (scheduling §8)", () => {
  it("the reducer turns the live event into the clicker-disconnected effect and leaves the caches alone", () => {
    const stopped: Stopped = { deviceSn: "SN1", perimetryId: "m1", appointmentId: null, examinationId: null };
    const out = reduceLiveEvent(
      emptySnapshot,
      { type: LiveEventType.Device, operation: LiveOperation.ClickerDisconnected, data: stopped, deviceSn: "SN1" },
      { viewedPatientId: null },
    );
    expect(out).toEqual({ snapshot: emptySnapshot, effects: [{ kind: "clicker-disconnected", stopped }] });
    // Data that does not say which test stopped is refused where it enters (the live socket), naming what is missing.
    const bad = decodeLiveEvent({ type: LiveEventType.Device, operation: LiveOperation.ClickerDisconnected, data: { deviceSn: "SN1" } });
    expect(Result.isFailure(bad) && bad.failure.field).toBe("data.perimetryId");
  });

  describe("end to end: a virtual headset, the in-process server and the client over its real adapters", () => {
    let server: TestServer;
    let client: Client;
    let token: string;
    const pump = new TimePump();
    let headset: VirtualHeadset | undefined;

    beforeAll(async () => {
      server = await startTestServer("pglite", { settings: { commandTimeoutMs: 8_000, deviceSilenceMs: 10 * 60_000 } });
      token = await login(server.url, "admin"); // the test's own calls; the client logs in as manager (one session per user)
      const storage = memoryStorage();
      const socket = createLiveSocket({
        url: `${server.url.replace(/^http/, "ws")}/api/ws`,
        storage,
        clock: systemClock,
        create: nodeWebSocket,
      });
      client = createClient(
        { api: createHttpApi({ apiBase: `${server.url}/api/`, storage }), socket, storage, clock: systemClock },
        { variant: "measurements" },
      );
      expect(await client.session.login("manager", DEMO_PASSWORD)).toBe(true);
      await pump.settle("the live socket open", () => client.session.socketState === SocketState.Open);
    }, 150_000);
    afterAll(async () => {
      headset?.stop();
      client?.dispose();
      await server?.drop();
    });

    it("a clicker fault during a run: the client emits clickerDisconnected with the device and the measurement, then the device shows stopped", async () => {
      const d = (await ok(server.url, "device.all", {}, token))[0]!;
      for (const x of d.perimetries) await ok(server.url, "perimetry.trash", { query: { id: x.id } }, token);
      for (const x of d.appointments ?? []) await ok(server.url, "appointment.trash", { query: { id: x.id } }, token);
      const h = new VirtualHeadset({
        deviceSn: d.deviceSn,
        credential: await credentialFor(server, d.deviceSn),
        clock: pump.clock,
        connector: wsConnector(`${server.url.replace(/^http/, "ws")}/device`),
        speed: 50,
        seed: d.deviceSn,
        profile: "healthy",
      });
      headset = h.start();
      await pump.run("connected", () => h.connected, 10_000);
      const p = await ok(
        server.url,
        "patient.register",
        { body: { name: "Clicker Drop", uniqueId: "CLK-1", gender: 0, lang: "en", birthdate: "1961-02-03" } },
        token,
      );
      const [m] = await ok(
        server.url,
        "perimetry.register",
        {
          body: {
            patientId: p.id,
            deviceSn: d.deviceSn,
            displayName: "Clicker",
            eye: Eye.Right,
            pattern: Pattern.P24_2,
            strategy: Strategy.SORS,
            sorsStage: 10,
            stimuliUpdate: StimuliUpdate.Ms1000,
            stimuliSize: StimulusSize.III_ADAPTIVE,
            stimuliShowtime: Showtime.Ms200,
            playSound: false,
            trackGaze: false,
            audioGuide: false,
            tutorial: false,
            notes: "",
          },
        },
        token,
      );
      await pump.settle("queued on the headset", () => h.queue.some((i) => i.kind === "measurement" && i.measurementId === m!.id));
      await client.cache.fetch(CacheKey.Devices, {});
      const got: Array<{ stopped: Stopped; status: S | undefined }> = [];
      client.events.on("clickerDisconnected", (stopped) => got.push({ stopped, status: client.devices.one(d.deviceSn)?.status }));

      await pump.settle(
        "the server has the headset's status",
        async () => (await ok(server.url, "device.all", {}, token)).find((x) => x.id === d.id)!.status === h.status,
      );
      await ok(server.url, "device.update", { query: { id: d.id }, body: { status: S.Playing } }, token);
      await pump.run("playing", () => h.status === S.Playing, 60_000);
      h.clickerDisconnect(60_000);
      expect(h.status).toBe(S.Stopped);

      await pump.settle("the client's event", () => got.length > 0);
      expect(got[0]!.stopped).toEqual({ deviceSn: d.deviceSn, perimetryId: m!.id, appointmentId: null, examinationId: null });
      expect(got[0]!.status).not.toBe(S.Stopped); // the message comes first, then the status
      await pump.settle("the device shown stopped", () => client.devices.one(d.deviceSn)?.status === S.Stopped);
      expect(got).toHaveLength(1);
      expect((await ok(server.url, "perimetry.get", { query: { id: m!.id } }, token)).result).toBeNull();
    }, 150_000);
  });
});
