import type { Eye } from "../model/enums.ts";
import type { ClientSettings } from "../model/client-settings.ts";
import type { MeasurementConfig } from "../model/measurement-config.ts";
import type { BaselineResultIds } from "../model/local-storage.ts";
import type { FacetContext } from "./facet-context.ts";
import { readBaseline, readPinned, readUnreliable, setUnreliable, toggleBaseline, togglePinned } from "./local-marks.ts";
import { readClientSettings, readPatientTestConfiguration, updateClientSettings } from "./local-settings.ts";

// The marks facet: what this browser keeps in local storage (scheduling seed §3 "Browser storage", accounts seed §3
// "Client settings"): pinned lanes, the baseline pair, unreliable results and the result page's settings. Each read
// answers the same value until a write changes it, so a view can compare what it read.

export interface MarksFacet {
  readonly pinned: readonly string[];
  togglePin(deviceSn: string): void;
  readonly baseline: BaselineResultIds;
  toggleBaseline(eye: Eye, measurementId: string): void;
  readonly unreliable: readonly string[];
  setUnreliable(measurementId: string, unreliable: boolean): void;
  /** Panels expanded and the analysis pattern. */
  readonly settings: ClientSettings;
  updateSettings(change: Partial<ClientSettings>): void;
  /** "patientTestConfigurations": the configuration last saved for the patient on this computer (the measurement form
   * writes it through `lanes.saveMeasurement`). */
  lastConfiguration(patientId: string): MeasurementConfig | undefined;
}

export function createMarksFacet(ctx: FacetContext): MarksFacet {
  const local = ctx.storage.local;
  /** The value read once per write (stored text is decoded on read). */
  const kept = <T>(read: () => T) => {
    let value: { v: T } | null = null;
    return { get: () => (value ??= { v: read() }).v, forget: () => void (value = null) };
  };
  const pinned = kept(() => readPinned(local));
  const baseline = kept(() => readBaseline(local));
  const unreliable = kept(() => readUnreliable(local));
  const settings = kept(() => readClientSettings(local));
  const wrote = (...values: Array<{ forget(): void }>) => {
    values.forEach((v) => v.forget());
    ctx.changed("marks");
  };
  return {
    get pinned() {
      return pinned.get();
    },
    togglePin(sn) {
      togglePinned(local, sn);
      wrote(pinned);
    },
    get baseline() {
      return baseline.get();
    },
    toggleBaseline(eye, id) {
      toggleBaseline(local, eye, id);
      wrote(baseline);
    },
    get unreliable() {
      return unreliable.get();
    },
    setUnreliable(id, value) {
      setUnreliable(local, id, value);
      // "Marking it reliable again also clears a baseline mark"
      wrote(unreliable, baseline);
    },
    get settings() {
      return settings.get();
    },
    updateSettings(change) {
      updateClientSettings(local, change);
      wrote(settings);
    },
    lastConfiguration: (patientId) => readPatientTestConfiguration(local, patientId),
  };
}
