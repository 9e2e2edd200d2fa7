import type { SimulatedHeadset } from "../../adapters/http/simulator-control.ts";
import { formatTable } from "../table.ts";

// The simulator's running headsets as a table.

const yesNo = (b: boolean) => (b ? "yes" : "no");
const patients = (p: SimulatedHeadset["profile"]) => p ?? "mix";

export function headsetsTable(headsets: readonly SimulatedHeadset[]): string {
  if (headsets.length === 0) return "No simulated headsets are running (add some: isopter simulate headsets add N).\n";
  const rows = headsets.map((h) => [
    h.deviceSn,
    h.powered ? h.status : "off (charging)",
    yesNo(h.connected),
    String(h.speed),
    patients(h.profile),
    `${Math.round(h.battery.vr)}%${h.battery.vrCharging ? "+" : ""}`,
    `${Math.round(h.battery.clicker)}%`,
    yesNo(h.testing),
    String(h.resultsProduced),
    String(h.pendingResults),
    h.pendingSettings ? `speed ${h.pendingSettings.speed}, ${patients(h.pendingSettings.profile)} after the test` : "",
  ]);
  return formatTable(
    ["serial", "status", "connected", "speed", "patients", "VR battery", "clicker", "testing", "results", "unsent", "next"],
    rows,
    ["left", "left", "left", "right", "left", "right", "right", "left", "right", "right", "left"],
  );
}
