// The cluster bench's headsets, played by processes of their own. One process playing every headset sends
// at its own timer turns: each turn's heartbeats go to every server at the same instant, so each of three servers was
// woken at every turn (650-700 times a second), as often as one server holding all the headsets, and the three
// together cost a third more than the one (2026-11-29, 3,000 headsets). Real headsets are independent devices. With
// the headsets spread over FLEETS processes (the same number whatever the cluster's size) the servers see the same
// shape of load with 1 or with 3 processes. A sample of the streaming headsets stays in the bench's own process, which
// times their frames against the browsers' events (fleet.ts); the fleets' frames are not timed.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { askChild, protocolFleet } from "../fleet.ts";

type FleetMessage = { cmd: "connect"; url: string; sn: string; credential: string; streams: boolean } | { cmd: "reconnects" };

/** `count` fleet processes (0: none, every headset in the caller's own); headsets are dealt to them in turn. */
export const fleetProcesses = (count: number, o: { reconnectMs: number; progressMs: number }) => {
  const children: ChildProcess[] = Array.from({ length: count }, () =>
    fork(fileURLToPath(import.meta.url), ["--fleet", String(o.reconnectMs), String(o.progressMs)], { execArgv: ["--import", "tsx"] }),
  );
  let dealt = 0;
  return {
    count,
    pids: () => children.map((c) => c.pid!),
    /** Headset `sn` on the server at `url`, beating (and streaming, untimed), from the next fleet process. */
    connect(url: string, sn: string, credential: string, streams: boolean) {
      children[dealt++ % count]!.send({ cmd: "connect", url, sn, credential, streams } satisfies FleetMessage);
    },
    /** Sockets closed and connected again, over all fleet processes. */
    async reconnects() {
      const each = await Promise.all(children.map((c) => askChild<number>(c, "reconnects", "reconnects")));
      return each.reduce((a, b) => a + b, 0);
    },
    stop() {
      for (const c of children) c.kill("SIGKILL");
    },
  };
};

if (process.argv[2] === "--fleet") {
  const [reconnectMs, progressMs] = process.argv.slice(3).map(Number);
  const fleets = new Map<string, ReturnType<typeof protocolFleet>>();
  process.on("message", (m: FleetMessage) => {
    if (m.cmd === "connect") {
      let fleet = fleets.get(m.url);
      if (!fleet) fleets.set(m.url, (fleet = protocolFleet(m.url, { reconnectMs: reconnectMs!, progressMs: progressMs!, sentAt: null })));
      fleet.connect(m.sn, m.credential, m.streams, "credential");
    } else process.send!({ reconnects: [...fleets.values()].reduce((s, f) => s + f.reconnects(), 0) });
  });
  // Stopped (killed) with the bench, or the bench gone (crashed): so are its headsets.
  process.on("disconnect", () => process.exit(0));
}
