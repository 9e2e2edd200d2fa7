import { join } from "node:path";
import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy, DeviceStatus } from "../../core/model/enums.ts";
import { newMeasurement, type Measurement } from "../../core/model/measurement.ts";
import { measurementConfigWith } from "../../core/rules/defaults.ts";
import { deviceSerial, seedDemo } from "../../simulator/server/demo/seed.ts";
import { startServer, type RunningServer } from "../../simulator/server/server.ts";
import { pairingCodesFor } from "../../simulator/server/device/enrolment.ts";
import { newId } from "../../simulator/server/store/ids.ts";
import { insertMeasurement } from "../../simulator/server/store/measurements.ts";
import { NO_FAULTS, startHeadsets, type Fleet } from "../../simulator/headset/index.ts";

// The whole stack for the technician bench, in this process: the clinic server on a free port over a throwaway PGlite
// directory, serving the given web build; the demo organisation with `lanes` headsets of `cards` queued measurements
// each; one virtual headset per device; and the first card of every lane started through the device command call
// (PATCH device/update {status: playing}), as the lane's play control sends it.

export const PASSWORD = "Bench-Pass-1!";
export const USERNAME = "manager";

export interface Stack {
  readonly url: string;
  /** A manager's access token (one login for the whole bench: a second login of the same user ends the first session). */
  readonly token: string;
  readonly server: RunningServer;
  readonly fleet: Fleet;
  /** The lanes as the server lists them (GET device/all). */
  lanes(): Promise<LaneSummary[]>;
  stop(): Promise<void>;
}

export interface LaneSummary {
  readonly id: string;
  readonly deviceSn: string;
  readonly status: string;
  readonly connection: string;
  readonly cards: number;
}

type Config = Pick<Measurement, "eye" | "pattern" | "strategy" | "stimuliUpdate" | "stimuliSize" | "stimuliShowtime" | "sorsStage">;

/** A clinic's mix of valid configurations (scheduling seed §5 "Allowed options per pattern"). */
const mix: readonly Config[] = [
  {
    eye: Eye.Right,
    pattern: Pattern.P24_2,
    strategy: Strategy.DS,
    stimuliUpdate: StimuliUpdate.Ms2000,
    stimuliSize: StimulusSize.III,
    stimuliShowtime: Showtime.Ms200,
    sorsStage: 36,
  },
  {
    eye: Eye.Left,
    pattern: Pattern.G,
    strategy: Strategy.SORS,
    stimuliUpdate: StimuliUpdate.Adaptive,
    stimuliSize: StimulusSize.III_ADAPTIVE,
    stimuliShowtime: Showtime.Ms200,
    sorsStage: 48,
  },
  {
    eye: Eye.Right,
    pattern: Pattern.P30_2,
    strategy: Strategy.Normal,
    stimuliUpdate: StimuliUpdate.Ms1500,
    stimuliSize: StimulusSize.III,
    stimuliShowtime: Showtime.Ms200,
    sorsStage: 36,
  },
  {
    eye: Eye.Left,
    pattern: Pattern.P10_2,
    strategy: Strategy.Supra,
    stimuliUpdate: StimuliUpdate.Ms2000,
    stimuliSize: StimulusSize.III,
    stimuliShowtime: Showtime.Ms100,
    sorsStage: 36,
  },
  {
    eye: Eye.Binocular,
    pattern: Pattern.Esterman,
    strategy: Strategy.OneLevel,
    stimuliUpdate: StimuliUpdate.Ms2000,
    stimuliSize: StimulusSize.IV,
    stimuliShowtime: Showtime.Ms500,
    sorsStage: 36,
  },
  {
    eye: Eye.Right,
    pattern: Pattern.G,
    strategy: Strategy.SORS_screening,
    stimuliUpdate: StimuliUpdate.Ms2000,
    stimuliSize: StimulusSize.III_ADAPTIVE,
    stimuliShowtime: Showtime.Ms200,
    sorsStage: 16,
  },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Every lane: card 1 is a 24-2 Normal test without audio guide, gaze calibration or tutorial, so a started headset is
 * streaming thresholds within seconds (countdown 5 s, first click 1-3 s, at speed 1) and for minutes after; cards 2
 * and 3 are a right/left pair (drawn linked); the rest cycle through `mix`.
 */
const seedLanes = async (server: RunningServer, lanes: number, cards: number) => {
  const org = (await server.db.query<{ id: string }>("select organisation_id as id from users where username = $1", [USERNAME]))[0]!.id;
  const patients = await server.db.query<{ id: string; name: string }>(
    "select id, name from patients where organisation_id = $1 order by name",
    [org],
  );
  const now = new Date().toISOString();
  await server.db.transaction(async (tx) => {
    // The demo's own few queued measurements make way for the bench's exact lanes.
    await tx.query("delete from measurements where organisation_id = $1 and device_sn is not null and result is null", [org]);
    for (let d = 0; d < lanes; d++) {
      const sn = deviceSerial(d + 1);
      let pairedWith: Measurement | null = null;
      for (let i = 0; i < cards; i++) {
        const patient = patients[(d * 7 + i) % patients.length]!;
        const paired = i === 2 && pairedWith !== null;
        const config: Config =
          i === 0
            ? { ...mix[0]!, strategy: Strategy.Normal }
            : i === 1 || paired
              ? { ...mix[d % 2 === 0 ? 0 : 2]!, eye: i === 1 ? Eye.Right : Eye.Left }
              : mix[(d + i) % mix.length]!;
        const settings = measurementConfigWith({
          patientId: paired ? pairedWith!.patientId : patient.id,
          deviceSn: sn,
          displayName: paired ? pairedWith!.displayName : `Test ${patient.name}`,
          ...config,
          trackGaze: i !== 0,
          audioGuide: i !== 0,
        });
        const m = newMeasurement(settings, newId(), now, paired ? pairedWith!.id : null);
        await insertMeasurement(tx, org, m, i + 1);
        if (i === 1) pairedWith = m;
      }
    }
  });
};

const RUNNING: ReadonlySet<string> = new Set([DeviceStatus.Countdown, DeviceStatus.AwaitUserInput, DeviceStatus.Playing]);

export async function startStack(o: {
  tmp: string;
  webRoot: string;
  lanes: number;
  cards: number;
  speed: number;
  log: (line: string) => void;
  streaming?: number;
}): Promise<Stack> {
  const server = await startServer({
    storage: { kind: "pglite", dataDir: join(o.tmp, "pglite") },
    host: "127.0.0.1",
    port: 0,
    webRoot: o.webRoot,
  });
  let fleet: Fleet | undefined;
  const stop = async () => {
    await fleet?.stop().catch(() => undefined);
    await server.close().catch(() => undefined);
  };
  try {
    await seedDemo(server.db, { password: PASSWORD, headsets: o.lanes, results: "fixtures" });
    await seedLanes(server, o.lanes, o.cards);

    const login = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: USERNAME, password: PASSWORD }),
    });
    if (!login.ok) throw new Error(`login answered ${login.status}`);
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const lanes = async (): Promise<LaneSummary[]> => {
      const r = await fetch(`${server.url}/api/device/all`, { headers });
      if (!r.ok) throw new Error(`device/all answered ${r.status}`);
      const body = (await r.json()) as {
        data: Array<{ id: string; deviceSn: string; status: string; connection: string; perimetries: unknown[] }>;
      };
      return body.data.map((d) => ({
        id: d.id,
        deviceSn: d.deviceSn,
        status: d.status,
        connection: d.connection,
        cards: d.perimetries.length,
      }));
    };

    const serials = Array.from({ length: o.lanes }, (_, i) => deviceSerial(i + 1));
    const keys = new Map([...(await pairingCodesFor(server.ctx, serials))].map(([sn, pairingCode]) => [sn, { pairingCode }]));
    fleet = await startHeadsets({
      url: server.url.replace(/^http/, "ws") + "/device",
      serials,
      keys,
      speed: o.speed,
      faults: NO_FAULTS,
      autopilot: false,
      seed: "bench",
      log: () => undefined,
    });

    // Every headset connected with its queue (awaitmeasurement) before the play control is pressed.
    const ready = async (test: (l: LaneSummary) => boolean, what: string, timeoutMs: number) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const ls = await lanes();
        const n = ls.filter(test).length;
        if (n === ls.length) return ls;
        if (Date.now() > until) throw new Error(`${what}: ${n} of ${ls.length} lanes after ${timeoutMs / 1000} s`);
        await sleep(500);
      }
    };
    const idle = await ready(
      (l) => l.connection === "CONNECTED" && l.status === DeviceStatus.AwaitMeasurement,
      "headsets connected and waiting",
      60_000,
    );

    // The play control: PATCH device/update {status: playing}, a few at a time, on the first `streaming` lanes.
    const failures: string[] = [];
    const playing = idle.slice(0, o.streaming ?? idle.length);
    const startedIds = new Set(playing.map((l) => l.id));
    for (let i = 0; i < playing.length; i += 10) {
      await Promise.all(
        playing.slice(i, i + 10).map(async (l) => {
          const r = await fetch(`${server.url}/api/device/update?id=${encodeURIComponent(l.id)}`, {
            method: "PATCH",
            headers,
            body: JSON.stringify({ status: DeviceStatus.Playing }),
          });
          if (!r.ok) failures.push(`${l.deviceSn}: ${r.status} ${await r.text()}`);
        }),
      );
    }
    if (failures.length) throw new Error(`start commands failed: ${failures.join("; ")}`);
    const started = Date.now();
    // Countdown 5 s and the first click 1-3 s of device time; the headsets run `speed` times faster.
    await ready((l) => !startedIds.has(l.id) || RUNNING.has(l.status), "tests started", 60_000);
    await ready((l) => !startedIds.has(l.id) || l.status === DeviceStatus.Playing, "tests playing", 60_000).catch((e: Error) =>
      o.log(`note: ${e.message}`),
    );
    o.log(
      `${o.lanes} headsets connected; start sent to ${playing.length} lanes, tests playing after ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return { url: server.url, token, server, fleet, lanes, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
