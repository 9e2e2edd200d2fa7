import { systemClock } from "../../adapters/clock/system-clock.ts";
import type { Clock } from "../../core/ports.ts";
import type { ProfileName } from "../perimetry/profiles.ts";
import { DEMO_FAULTS, type FaultRates, NO_FAULTS } from "./faults.ts";
import { type HeadsetKey, VirtualHeadset } from "./headset.ts";
import type { Connector } from "./transport.ts";
import { deviceConnector } from "./ws-connector.ts";

export { VirtualHeadset, type HeadsetEvents, type HeadsetKey, type HeadsetOptions } from "./headset.ts";
export { DEMO_FAULTS, NO_FAULTS, type FaultRates } from "./faults.ts";
export type { Connector, Link, LinkHandlers } from "./transport.ts";
export { deviceConnector, wsConnector } from "./ws-connector.ts";

// A fleet of virtual headsets beside the server (`npm start` runs one per enrolled serial, each with the pairing code
// the server issued for it; the CLI can add more).
// ISOPTER_HEADSET_FAULTS=demo turns on random faults (faults.ts DEMO_FAULTS) when no faults are given; default none.

export interface FleetOptions {
  /** Device socket URL, e.g. ws://127.0.0.1:8080/device (`serverUrl` is accepted too), or several (the processes of a
   * cluster): the headsets spread over them and each moves on to the next when its link closes (deviceConnector). */
  readonly url?: string | readonly string[];
  readonly serverUrl?: string;
  /** Serial numbers, each enrolled with the server (it refuses unknown ones). */
  readonly serials?: readonly string[];
  /** Each serial's credential or pairing code (the server refuses a headset without one). */
  readonly keys: ReadonlyMap<string, HeadsetKey>;
  /** Without serials: this many, named `${prefix}0001`, ... (default 4, prefix "VR-SIM-"). */
  readonly count?: number;
  readonly prefix?: string;
  /** Device time per clock time (1 = as on a real headset; 10 = tests take a tenth as long). */
  readonly speed?: number;
  readonly faults?: Partial<FaultRates>;
  /** Queued items start by themselves and silent-patient pauses resume (unattended demos). Default false. */
  readonly autopilot?: boolean;
  /** Every patient of this profile (default: a clinic's mix by patient id). */
  readonly profile?: ProfileName;
  /** Seed root; headset i uses `${seed}/${serial}`. Default the serial alone. */
  readonly seed?: string;
  readonly clock?: Clock;
  readonly connector?: Connector;
  readonly log?: (line: string) => void;
}

export interface Fleet {
  readonly headsets: readonly VirtualHeadset[];
  /** Add one more headset (the CLI's "add headset"). */
  add(serial: string, key: HeadsetKey): VirtualHeadset;
  stop(): Promise<void>;
}

export const faultsFromEnv = (value: string | undefined): FaultRates => (value === "demo" ? DEMO_FAULTS : NO_FAULTS);

export const DEFAULT_HEADSETS = 4;

export const startHeadsets = async (o: FleetOptions): Promise<Fleet> => {
  const url = o.url ?? o.serverUrl;
  if (!url && !o.connector) throw new Error("startHeadsets: give url (the server's /device socket) or a connector");
  const clock = o.clock ?? systemClock;
  const connectorFor = (index: number) => o.connector ?? deviceConnector(url!, index);
  const faults = o.faults ?? faultsFromEnv(process.env.ISOPTER_HEADSET_FAULTS);
  const serials =
    o.serials ?? Array.from({ length: o.count ?? DEFAULT_HEADSETS }, (_, i) => `${o.prefix ?? "VR-SIM-"}${String(i + 1).padStart(4, "0")}`);
  const headsets: VirtualHeadset[] = [];
  const add = (serial: string, key: HeadsetKey) => {
    const h = new VirtualHeadset({
      deviceSn: serial,
      ...key,
      clock,
      connector: connectorFor(headsets.length),
      speed: o.speed ?? 1,
      faults,
      ...(o.autopilot !== undefined ? { autopilot: o.autopilot } : {}),
      ...(o.profile ? { profile: o.profile } : {}),
      ...(o.seed ? { seed: `${o.seed}/${serial}` } : {}),
      log: o.log ?? ((l) => console.log(l)),
    });
    headsets.push(h);
    h.start();
    return h;
  };
  for (const sn of serials) {
    const key = o.keys.get(sn);
    if (!key) throw new Error(`startHeadsets: no credential or pairing code for ${sn}`);
    add(sn, key);
  }
  return {
    headsets,
    add,
    stop: async () => {
      for (const h of headsets) h.stop();
    },
  };
};
