import { atom } from "jotai";
import type { FormMode } from "../../core/rules/form-context.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import { StorageKeys, type KeyValueStore } from "../../core/ports.ts";
import { togglePin } from "../../core/scheduling/pinned-lanes.ts";

// Technician-view state that is not the device list: pinned lanes (local storage) and the open measurement form.

/** "pins are stored locally in the browser": a JSON array of device serial numbers. Anything unreadable is no pins. */
export function readPins(local: KeyValueStore): string[] {
  try {
    const value: unknown = JSON.parse(local.get(StorageKeys.local.pinnedSwimlanes) ?? "[]");
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

export const pinsAtom = atom<readonly string[]>([]);

/** Pins or unpins a lane and stores the list. */
export const togglePinAtom = atom(null, (get, set, args: { deviceSn: string; local: KeyValueStore }) => {
  const next = togglePin(get(pinsAtom), args.deviceSn);
  args.local.set(StorageKeys.local.pinnedSwimlanes, JSON.stringify(next));
  set(pinsAtom, next);
});

/** The measurement form the technician has open: its mode, the device it is for and the measurement it starts from. */
export interface MeasurementFormRequest {
  readonly mode: FormMode;
  readonly deviceSn: string;
  /** Edit and clone: the measurement. */
  readonly source?: Measurement;
}

export const measurementFormAtom = atom<MeasurementFormRequest | null>(null);
