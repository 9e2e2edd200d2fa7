import { localBus } from "../../simulator/server/bus/bus.ts";
import { localRoster, type Roster } from "../../simulator/server/bus/roster.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { readServerFrame, type ServerMessage } from "../../core/device/protocol.ts";
import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy } from "../../core/model/enums.ts";
import type { Database } from "../../simulator/server/db/database.ts";
import { deviceHub } from "../../simulator/server/device/hub.ts";
import { login, ok, startTestServer, type TestServer } from "../server/harness.ts";

// The server's device hub sends a headset its stand-alone setting after every change and on every (re)connection.
// Two of those sends for one headset can overlap (a headset says hello while the technician switches stand-alone off):
// each reads the database in several steps, so an older send could finish after a newer one and leave the headset with
// a setting that no longer holds. The hub sends them one after the other, so the last one sent was read last.

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe("device hub: the headset ends with the current stand-alone setting", () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer("pglite");
    token = await login(server.url, "manager");
  }, 120_000);
  afterAll(async () => {
    await server?.drop();
  });

  it("'The device repeats one chosen measurement until switched off' (scheduling §4): a slow send of the old setting cannot land after the switch-off", async () => {
    const d = (await ok(server.url, "device.all", {}, token))[2]!;
    const p = await ok(
      server.url,
      "patient.register",
      { body: { name: "Hub Order", uniqueId: "HUB-1", gender: 0, lang: "en", birthdate: "1960-01-01" } },
      token,
    );
    const config = {
      patientId: p.id,
      displayName: "Stand-alone",
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      strategy: Strategy.SORS,
      sorsStage: 10 as const,
      stimuliUpdate: StimuliUpdate.Ms1000,
      stimuliSize: StimulusSize.III_ADAPTIVE,
      stimuliShowtime: Showtime.Ms200,
      playSound: false,
      trackGaze: false,
      audioGuide: false,
      tutorial: false,
    };
    const on = await ok(server.url, "device.standalone", { query: { deviceSn: d.deviceSn }, body: config }, token);

    // A second hub on the same database whose first read of the stand-alone configuration waits at a gate.
    const gate = deferred();
    const reached = deferred();
    let armed = true;
    const db: Database = {
      ...server.db,
      query: async (sql, params) => {
        if (armed && sql.includes("from standalone_configs")) {
          armed = false;
          reached.resolve();
          await gate.promise;
        }
        return server.db.query(sql, params);
      },
      transaction: (work) => server.db.transaction(work),
    };
    const sent: ServerMessage[] = [];
    const socket = {
      OPEN: 1,
      readyState: 1,
      send: (text: string) => {
        const m = readServerFrame(text);
        if (m._tag === "Success") sent.push(m.success);
      },
      close: () => undefined,
    } as unknown as WebSocket;
    const hub = deviceHub(db, 5_000, localBus(), localRoster());
    await hub.attach(d.deviceSn, socket, "credential-hash");

    const older = hub.pushStandalone(d.deviceSn); // e.g. the one a reconnecting headset's hello asks for
    await reached.promise; // it has read stand-alone as on and is still reading
    await ok(server.url, "device.standalone", { query: { deviceSn: d.deviceSn }, body: null }, token); // switched off
    const newer = hub.pushStandalone(d.deviceSn); // the switch-off's own send
    await Promise.race([newer, new Promise((r) => setTimeout(r, 200))]);
    gate.resolve();
    await Promise.all([older, newer]);

    const settings = sent.filter((m): m is Extract<ServerMessage, { type: "standalone" }> => m.type === "standalone");
    expect(settings.map((m) => m.standaloneId)).toEqual([on!.id, null]);
    expect(settings.at(-1)).toEqual({ type: "standalone", standaloneId: null, config: null });
  }, 60_000);
});

describe("device hub: a headset that reconnects to the same process stays findable by the others", () => {
  it("a closed socket's release cannot reach the roster after the claim of the socket that replaced it (issue 17 §1)", async () => {
    // A roster whose release waits at a gate, as a DELETE sent on another pooled connection can come late.
    const held = new Set<string>();
    const gate = deferred();
    const releasing = deferred();
    const roster: Roster = {
      ...localRoster(),
      claim: async (sn) => void held.add(sn),
      release: async (sn) => {
        releasing.resolve();
        await gate.promise;
        return held.delete(sn);
      },
    };
    const socket = () => ({ OPEN: 1, readyState: 1, send: () => undefined, close: () => undefined }) as unknown as WebSocket;
    const hub = deviceHub({} as Database, 5_000, localBus(), roster);
    const first = socket();
    await hub.attach("VR-0009", first, "credential-hash");
    hub.detach("VR-0009", first); // the first socket closed: nothing holds the serial here now
    const released = hub.release("VR-0009");
    await releasing.promise; // its release is on its way to the database
    const attached = hub.attach("VR-0009", socket(), "credential-hash"); // the headset is back at once
    gate.resolve();
    await Promise.all([released, attached]);
    expect(held.has("VR-0009")).toBe(true);
  });
});
