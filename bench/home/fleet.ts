// bench:home's headsets: one virtual headset per home, in home mode (its patient skips, stops midway, misunderstands or
// lets the headset slip, simulator/perimetry/home-behaviour.ts), reaching the server only through its home's network
// on the fault proxy. Each one's upload delay after a reconnection is timed here: from the welcome that follows a lost
// link to the server's resultAccepted, for every result pending at that welcome.
import { performance } from "node:perf_hooks";
import { systemClock } from "../../adapters/clock/system-clock.ts";
import { VirtualHeadset } from "../../simulator/headset/headset.ts";
import { wsConnector } from "../../simulator/headset/ws-connector.ts";
import type { FaultProxy } from "../../simulator/network/fault-proxy.ts";
import { HOME_LAPSES, type HomeBehaviour } from "../../simulator/perimetry/home-behaviour.ts";
import type { Home } from "./homes.ts";

export interface HomeFleetOptions {
  /** Device time per clock time while testing. */
  readonly speed: number;
  /** Clock time between two sessions (a week at home, compressed), ms. */
  readonly gapMs: number;
  readonly behaviour?: HomeBehaviour;
}

export const homeFleet = (proxy: FaultProxy, o: HomeFleetOptions) => {
  const headsets: VirtualHeadset[] = [];
  /** Upload delays after reconnection, ms. */
  const delays: number[] = [];
  /** Results the server acknowledged without storing them (`${serial}\u0000${resultId}` -> its reason: not due, ...). */
  const refused = new Map<string, string>();
  const add = (home: Home) => {
    const h = new VirtualHeadset({
      deviceSn: home.serial,
      credential: home.credential,
      clock: systemClock,
      connector: wsConnector(proxy.urlFor(home.id)),
      speed: o.speed,
      seed: `bench-home/${home.id}`,
      battery: { vr: 100, clicker: 100, vrCharging: true },
      standaloneGapMs: o.gapMs * o.speed,
      homeBehaviour: o.behaviour ?? HOME_LAPSES,
      log: () => undefined,
    });
    let lostOnce = false;
    const since = new Map<string, number>();
    h.events.on("connection", (up) => {
      if (!up) lostOnce = true;
      else if (lostOnce) for (const m of h.outbox.pending()) if (m.type === "standaloneResult") since.set(m.resultId, performance.now());
    });
    h.events.on("received", (m) => {
      if (m.type !== "resultAccepted") return;
      if (m.refused !== undefined) refused.set(`${h.deviceSn}\u0000${m.resultId}`, m.refused);
      const t = since.get(m.resultId);
      if (t === undefined) return;
      since.delete(m.resultId);
      delays.push(performance.now() - t);
    });
    headsets.push(h);
    h.start();
  };
  /** No new session starts (each patient skips from now on); runs under way finish and upload. */
  const noMoreSessions = () => {
    for (const h of headsets) if (h.home) h.home.behaviour = { ...h.home.behaviour, skipRate: 1 };
  };
  const testing = () => headsets.filter((h) => h.running !== null).length;
  const settled = () => headsets.every((h) => h.pendingResults === 0 && h.running === null);
  const stop = () => {
    for (const h of headsets) h.stop();
  };
  return { headsets, delays, refused, add, noMoreSessions, testing, settled, stop };
};
