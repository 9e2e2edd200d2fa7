import type { Command } from "commander";
import { isLiveEvent, type LiveMessage } from "../../core/model/live.ts";
import type { Device } from "../../core/model/device.ts";
import { defineCommand, nonNegativeNumberOption, positiveIntOption, sharedOptions } from "../command.ts";
import { CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import type * as Live from "../live.ts";
import { openSession } from "../session.ts";
import { deviceRow, devicesTable } from "../devices/device-table.ts";
import { diagnose, diagnosisText, type Observation } from "../devices/diagnosis.ts";
import { registerEnrolment } from "../devices/enrolment.ts";

// isopter devices list | watch | ping | diagnose SN | enrol SN | revoke SN

/** The live socket (ws) and the headless client load with the commands that use them, not with every `isopter` run. */
const live = (): Promise<typeof Live> => import("../live.ts");

/** How often `diagnose` samples the headset: well under the 1 s heartbeat, so consecutive beats are told apart. */
const DIAGNOSE_SAMPLE_MS = 200;

/** Resolves after `seconds` (when given) or on Ctrl-C. */
function untilStopped(seconds: number | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = seconds === undefined ? null : setTimeout(done, seconds * 1000);
    process.once("SIGINT", done);
    function done() {
      if (timer) clearTimeout(timer);
      process.removeListener("SIGINT", done);
      resolve();
    }
  });
}

export function registerDevices(program: Command, io: CliIo): void {
  const devices = program
    .command("devices")
    .description("VR headsets: status, battery, connection and queue; live watch, ping, diagnosis; enrol and revoke");

  defineCommand(devices, "list", "list the organisation's devices with status, battery, connection and queue (the default)", {
    isDefault: true,
  }).action(async (_o: unknown, cmd: Command) => {
    const shared = sharedOptions(cmd);
    const session = openSession(shared, io);
    const list = await session.api.call("device.all", {});
    const rows = list.map((d) => deviceRow(d));
    io.stdout.write(shared.json ? JSON.stringify(rows) + "\n" : devicesTable(rows, Date.now()));
  });

  defineCommand(devices, "watch", "a live table of the devices from the live socket, redrawn in place (Ctrl-C to stop)")
    .option("--duration <seconds>", "stop after this many seconds", nonNegativeNumberOption)
    .addHelpText(
      "after",
      "\nOn a terminal the table is redrawn in place; piped, each change prints a new table (--json: one JSON line per change).",
    )
    .action(async (o: { duration?: number }, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const session = openSession(shared, io);
      // The headless client (core/client) keeps the device cache, applies live events and tracks heartbeats
      // (a device without one for 4 s shows disconnected), exactly as the technician view does.
      const [{ openLiveSocket, sessionStorage }, { createClient }, { CacheKey }, { systemClock }] = await Promise.all([
        live(),
        import("../../core/client/client.ts"),
        import("../../core/client/cache-keys.ts"),
        import("../../adapters/clock/system-clock.ts"),
      ]);
      const client = createClient({
        api: session.api,
        socket: openLiveSocket(session),
        storage: sessionStorage(session),
        clock: systemClock,
      });
      const tty = io.stdout.isTTY === true && !shared.json;
      let drawnLines = 0,
        last = "",
        ended: CliError | null = null;
      const draw = () => {
        const rows = client.devices.list().map((v) => deviceRow(v.device, v));
        const text = shared.json ? JSON.stringify({ at: new Date().toISOString(), devices: rows }) + "\n" : devicesTable(rows, Date.now());
        // Piped output prints only real changes (not the ticking "last seen"); the terminal redraws every second.
        const key = tty ? text : JSON.stringify(rows.map(({ lastSeen: _l, ...r }) => r));
        if (key === last) return;
        last = key;
        if (tty) {
          io.stdout.write((drawnLines ? `\x1b[${drawnLines}A\x1b[0J` : "") + text);
          drawnLines = text.split("\n").length - 1;
        } else io.stdout.write(shared.json ? text : `${new Date().toISOString()}\n${text}`);
      };
      let pending: ReturnType<typeof setTimeout> | null = null;
      const schedule = () => (pending ??= setTimeout(() => ((pending = null), draw()), 250));
      client.events.on("change", schedule);
      let stop: () => void = () => undefined;
      client.events.on("navigate", ({ to }) => {
        if (to === "login") {
          ended = new CliError(ExitCode.NotLoggedIn, "the session ended (expired or logged in elsewhere); run `isopter login`");
          stop();
        }
      });
      try {
        await client.session.start();
        await client.cache.fetch(CacheKey.Devices, {});
        draw();
        const timer = setInterval(draw, 1000); // keeps "last seen" fresh
        await Promise.race([untilStopped(o.duration), new Promise<void>((r) => (stop = r))]);
        clearInterval(timer);
      } finally {
        if (pending) clearTimeout(pending);
        client.events.off("change", schedule);
        client.dispose();
      }
      if (ended) throw ended;
    });

  defineCommand(devices, "ping", "round trip to the server over the live socket (ping / pong)")
    .option("-c, --count <n>", "how many pings", positiveIntOption, 4)
    .option("--interval <ms>", "pause between pings in ms", nonNegativeNumberOption, 500)
    .option("--timeout <ms>", "give up on a pong after this long", positiveIntOption, 3000)
    .action(async (o: { count: number; interval: number; timeout: number }, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const session = openSession(shared, io);
      const { openLiveSocket, sessionEnded, whenOpen } = await live();
      const socket = openLiveSocket(session, { reconnect: false });
      let waiting: ((ok: boolean) => void) | null = null;
      let ended: CliError | null = null;
      const off = socket.subscribe((m: LiveMessage) => {
        if (isLiveEvent(m)) return;
        if (m.type === "pong") waiting?.(true);
        const end = sessionEnded(m.type);
        if (end) {
          ended = end;
          waiting?.(false);
        }
      });
      const nextPong = () =>
        new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => ((waiting = null), resolve(false)), o.timeout);
          waiting = (ok) => {
            clearTimeout(timer);
            waiting = null;
            resolve(ok);
          };
        });
      const rtts: Array<number | null> = [];
      try {
        const first = nextPong(); // the adapter pings on open (seeds: "on open ... plus a ping"); wait for that pong first
        await whenOpen(socket, o.timeout);
        if (!(await first) && ended) throw ended;
        for (let i = 0; i < o.count; i++) {
          if (i > 0 && o.interval > 0) await new Promise((r) => setTimeout(r, o.interval));
          const started = performance.now();
          const pong = nextPong();
          socket.send({ type: "ping" });
          const ok = await pong;
          if (ended) throw ended;
          const rtt = ok ? Math.round((performance.now() - started) * 100) / 100 : null;
          rtts.push(rtt);
          if (!shared.json)
            io.stdout.write(
              rtt === null
                ? `ping ${i + 1}: no pong within ${o.timeout} ms\n`
                : `pong ${i + 1} from ${session.server}: ${rtt.toFixed(2)} ms\n`,
            );
        }
      } finally {
        off();
        socket.close();
      }
      const got = rtts.filter((r): r is number => r !== null);
      const stats = got.length
        ? { min: Math.min(...got), avg: Math.round((got.reduce((a, b) => a + b, 0) / got.length) * 100) / 100, max: Math.max(...got) }
        : null;
      if (shared.json)
        io.stdout.write(
          JSON.stringify({ server: session.server, sent: rtts.length, received: got.length, rttMs: rtts, ...(stats ?? {}) }) + "\n",
        );
      else
        io.stdout.write(
          `${rtts.length} sent, ${got.length} received${stats ? `, round trip min/avg/max ${stats.min}/${stats.avg}/${stats.max} ms` : ""}\n`,
        );
      if (got.length < rtts.length) throw new CliError(ExitCode.Failure, `${rtts.length - got.length} of ${rtts.length} pings got no pong`);
    });

  defineCommand(devices, "diagnose <serial>", "watch one headset: heartbeat regularity, missed heartbeats, battery trend, last problems")
    .option("--duration <seconds>", "how long to observe", nonNegativeNumberOption, 30)
    .action(async (serial: string, o: { duration: number }, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const session = openSession(shared, io);
      const find = async () => (await session.api.call("device.all", {})).find((d) => d.deviceSn === serial);
      const first = await find();
      if (!first) {
        const list = await session.api.call("device.all", {});
        throw new CliError(
          ExitCode.Failure,
          `no device ${serial} in this organisation (known: ${list.map((d) => d.deviceSn).join(", ") || "none"})`,
        );
      }
      // Heartbeats are not broadcast to the live socket (only battery changes are), so the headset is sampled
      // through device/all, which overlays what the server heard: each new lastSeen is one heartbeat, at its server time.
      const observations: Observation[] = [];
      let last: Device = first;
      const sample = async () => {
        const now = await find();
        if (!now) return;
        if (now.connection !== last.connection) observations.push({ at: Date.now(), kind: "connection", connection: now.connection });
        if (now.status !== last.status) observations.push({ at: Date.now(), kind: "status", status: now.status });
        if (now.lastSeen !== null && now.lastSeen !== last.lastSeen) {
          observations.push({ at: Date.parse(now.lastSeen), kind: "heartbeat", battery: now.battery.vr.level ?? null });
        }
        last = now;
      };
      const bar = io.stderr.isTTY
        ? setInterval(() => io.stderr.write(`\r\x1b[2Kobserving ${serial}: ${observations.length} events`), 500)
        : null;
      const started = Date.now();
      let sampling = true;
      const loop = (async () => {
        while (sampling) {
          await sample();
          await new Promise((r) => setTimeout(r, DIAGNOSE_SAMPLE_MS));
        }
      })();
      try {
        await untilStopped(o.duration);
      } finally {
        sampling = false;
        if (bar) clearInterval(bar), io.stderr.write("\r\x1b[2K");
      }
      await loop;
      const d = { ...diagnose(serial, observations, Date.now() - started), current: deviceRow(last) };
      io.stdout.write(shared.json ? JSON.stringify(d) + "\n" : diagnosisText(d));
    });

  registerEnrolment(devices, io);
}
