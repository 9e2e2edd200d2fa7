import { ConnectionStatus, DeviceStatus } from "../model/enums.ts";

// Connection tracking of the scheduling seed §4 "Connection", as pure functions of events and timestamps (ms).

/** "device disconnect timeout 4 s" (scheduling seed §9). */
export const DEVICE_DISCONNECT_TIMEOUT_MS = 4_000;
/** "live progress clearing 5 s" (scheduling seed §9). */
export const LIVE_PROGRESS_CLEAR_MS = 5_000;
/** How often a headset sends a heartbeat on the device socket. The seeds' 15 s heartbeat is the browser's live-socket
 * ping; a device must beat well inside the 4 s timeout, so ours beats every second. */
export const DEVICE_HEARTBEAT_INTERVAL_MS = 1_000;

export interface DeviceConnection {
  readonly connection: ConnectionStatus;
  readonly status: DeviceStatus;
  /** Time of the last heartbeat, or null before the first. */
  readonly lastHeartbeatAt: number | null;
  /** Time of the last live progress update, or null when there is no live progress. */
  readonly lastProgressAt: number | null;
}

export const initialConnection: DeviceConnection = {
  connection: ConnectionStatus.Disconnected,
  status: DeviceStatus.NotConnected,
  lastHeartbeatAt: null,
  lastProgressAt: null,
};

/** "A heartbeat marks a device connected (disconnected if its status is not connected)." */
export const onHeartbeat = (c: DeviceConnection, now: number): DeviceConnection => ({
  ...c,
  lastHeartbeatAt: now,
  connection: c.status === DeviceStatus.NotConnected ? ConnectionStatus.Disconnected : ConnectionStatus.Connected,
});

/** A status message sets the status; a not-connected status also marks the connection disconnected. */
export const onStatus = (c: DeviceConnection, status: DeviceStatus): DeviceConnection => ({
  ...c,
  status,
  connection: status === DeviceStatus.NotConnected ? ConnectionStatus.Disconnected : c.connection,
});

/** Live progress arrived. */
export const onProgress = (c: DeviceConnection, now: number): DeviceConnection => ({ ...c, lastProgressAt: now });

/** "An abnormal close or a disconnection event marks it disconnected." and "Live progress per device is cleared ... on
 * abnormal close." */
export const onAbnormalClose = (c: DeviceConnection): DeviceConnection => ({
  ...c,
  connection: ConnectionStatus.Disconnected,
  lastProgressAt: null,
});

/** "An abnormal close or a disconnection event marks it disconnected." (a disconnection event keeps live progress; it
 * clears by the 5 s rule). */
export const onDisconnection = (c: DeviceConnection): DeviceConnection => ({ ...c, connection: ConnectionStatus.Disconnected });

/** "No heartbeat for 4 s marks it disconnected." */
export const connectionAt = (c: DeviceConnection, now: number): ConnectionStatus =>
  c.connection === ConnectionStatus.Connected && c.lastHeartbeatAt !== null && now - c.lastHeartbeatAt < DEVICE_DISCONNECT_TIMEOUT_MS
    ? ConnectionStatus.Connected
    : ConnectionStatus.Disconnected;

/** "Live progress per device is cleared 5 s after updates stop." */
export const hasLiveProgressAt = (c: DeviceConnection, now: number): boolean =>
  c.lastProgressAt !== null && now - c.lastProgressAt < LIVE_PROGRESS_CLEAR_MS;

/** Apply the timeouts at `now`: the state a tick of the server's clock should store. */
export const tick = (c: DeviceConnection, now: number): DeviceConnection => ({
  ...c,
  connection: connectionAt(c, now),
  lastProgressAt: hasLiveProgressAt(c, now) ? c.lastProgressAt : null,
});

/** When the next timeout could change this device's state, for scheduling one timer instead of polling. */
export const nextDeadline = (c: DeviceConnection): number | null => {
  const times = [
    c.connection === ConnectionStatus.Connected && c.lastHeartbeatAt !== null ? c.lastHeartbeatAt + DEVICE_DISCONNECT_TIMEOUT_MS : null,
    c.lastProgressAt !== null ? c.lastProgressAt + LIVE_PROGRESS_CLEAR_MS : null,
  ].filter((t): t is number => t !== null);
  return times.length ? Math.min(...times) : null;
};
