import type { Device } from "../../core/model/device.ts";
import type { DeviceView } from "../../core/client/device-view.ts";
import { formatTable } from "../table.ts";

// Devices as a table and as JSON: status, connection, batteries, queue, last seen.

export interface DeviceRow {
  readonly deviceSn: string;
  readonly alias: string;
  readonly status: string;
  readonly connection: string;
  readonly battery: {
    readonly vr: number | null;
    readonly vrCharging: boolean;
    readonly clicker: number | null;
    readonly clickerCharging: boolean;
  };
  /** Queued measurements (lane order) and appointments. */
  readonly queue: number;
  readonly queueIds: readonly string[];
  readonly testRunning: boolean;
  readonly lastSeen: string | null;
  readonly standalone: boolean;
}

export function deviceRow(d: Device, view?: DeviceView): DeviceRow {
  const queueIds = [...d.perimetries.map((m) => m.id), ...(d.appointments ?? []).map((a) => a.id)];
  return {
    deviceSn: d.deviceSn,
    alias: d.alias,
    status: view?.status ?? d.status,
    connection: view?.connection ?? d.connection,
    battery: {
      vr: d.battery.vr.level,
      vrCharging: d.battery.vr.charging,
      clicker: d.battery.clicker.level,
      clickerCharging: d.battery.clicker.charging,
    },
    queue: queueIds.length,
    queueIds,
    testRunning: view?.testRunning ?? false,
    lastSeen: d.lastSeen,
    standalone: d.standaloneId !== null,
  };
}

const level = (v: number | null, charging: boolean) => (v === null ? "–" : `${Math.round(v)}%${charging ? "+" : ""}`);

/** "12 s ago", "3 min ago", "2 h ago", or the date. */
export function ago(iso: string | null, now: number): string {
  if (iso === null) return "never";
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return iso.slice(0, 10);
}

export function devicesTable(rows: readonly DeviceRow[], now: number): string {
  if (rows.length === 0) return "No devices.\n";
  return formatTable(
    ["serial", "alias", "status", "connection", "VR battery", "clicker", "queue", "last seen"],
    rows.map((r) => [
      r.deviceSn,
      r.alias,
      r.status + (r.testRunning ? " (test running)" : "") + (r.standalone ? " [stand-alone]" : ""),
      r.connection,
      level(r.battery.vr, r.battery.vrCharging),
      level(r.battery.clicker, r.battery.clickerCharging),
      String(r.queue),
      ago(r.lastSeen, now),
    ]),
    ["left", "left", "left", "left"],
  );
}
