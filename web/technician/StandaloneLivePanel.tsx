import type { RunningTest } from "../../core/model/running-test.ts";
import type { GazeCalibration } from "../../core/model/enums.ts";
import { useRead } from "../state/use-read.ts";
import { LivePanel } from "./LivePanel.tsx";

/** Stand-alone ids seen on devices: a run started in stand-alone mode stays one after the mode is switched off. */
const standaloneIds = new Set<string>();
export const rememberStandalone = (id: string | null) => {
  if (id !== null) standaloneIds.add(id);
};
export const isStandaloneRun = (id: string | null, current: string | null): id is string =>
  id !== null && (id === current || standaloneIds.has(id));

/**
 * A stand-alone run shown live ("The device repeats one chosen measurement until switched off"): its progress names
 * the stand-alone id, so the panel reads the measurement it repeats (device/standalone_data) to draw its locations and
 * name its patient.
 */
export function StandaloneLivePanel({
  standaloneId,
  progress,
  gazeCalibration,
  laneName,
}: {
  standaloneId: string;
  progress: RunningTest;
  gazeCalibration?: GazeCalibration;
  laneName: string;
}) {
  const data = useRead("device.standaloneData", { query: { id: standaloneId } });
  if (data.status !== "success") return null;
  const c = data.data.config;
  return (
    <LivePanel
      progress={progress}
      gazeCalibration={gazeCalibration}
      laneName={laneName}
      standalone
      measurement={{ displayName: c.displayName, pattern: c.pattern, strategy: c.strategy, eye: c.eye, patientId: c.patientId }}
    />
  );
}
