import type { HeadsetFault, SimulatedHeadset, SimulatedProfile } from "../../adapters/http/simulator-control.ts";

// What the server may do with the virtual headsets running beside it. simulator/start.ts owns both the server and the
// headsets and hands the server this port (headset-control.ts implements it), so the server never imports
// simulator/headset. The dev routes (server/http/dev-routes.ts) put it on the network for admins and managers.

export interface HeadsetSettings {
  /** null: the clinic mix (each patient id keeps its own profile). */
  readonly profile?: SimulatedProfile | null;
  readonly speed?: number;
}

export type HeadsetTarget = { readonly deviceSn: string } | { readonly all: true };

export interface HeadsetControl {
  /** False until start.ts has attached the headsets to the server's device socket. */
  readonly ready: boolean;
  list(): SimulatedHeadset[];
  has(deviceSn: string): boolean;
  /** Starts one headset per serial, each enrolled with the server beforehand and given the pairing code issued for it
   * (it exchanges the code for its credential as a real headset would); answers them. */
  add(headsets: ReadonlyArray<{ readonly deviceSn: string; readonly pairingCode: string }>, settings: HeadsetSettings): SimulatedHeadset[];
  /** Switches the headset off for good; answers it as it was. */
  remove(deviceSn: string): SimulatedHeadset;
  /** Injects one fault now; answers how long it lasts in seconds of clock time (null: until the headset recovers). */
  fault(deviceSn: string, fault: HeadsetFault, seconds?: number): { seconds: number | null };
  /** New settings for one headset or every one. A new speed applies at once, busy or idle (a running test goes on at it
   * from its next step, nothing restarts); a new patient profile restarts the headset with it (and its current speed) at
   * once when idle, else after its test. */
  configure(target: HeadsetTarget, settings: HeadsetSettings): SimulatedHeadset[];
  stop(): Promise<void>;
}

/** The serial names no running headset (the dev routes answer not_found naming it). */
export class UnknownHeadset extends Error {
  constructor(readonly deviceSn: string) {
    super(`No simulated headset ${deviceSn} is running`);
  }
}
