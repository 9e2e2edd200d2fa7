import {
  connectionAt,
  hasLiveProgressAt,
  initialConnection,
  nextDeadline,
  onAbnormalClose,
  onDisconnection,
  onHeartbeat,
  onProgress,
  onStatus,
  tick,
  type DeviceConnection,
} from "../device/connection.ts";
import { ConnectionStatus, type DeviceStatus } from "../model/enums.ts";
import type { Device } from "../model/device.ts";
import type { RunningTest } from "../model/running-test.ts";
import type { Clock, TimerId } from "../ports.ts";

// Device tracking in the browser (scheduling seed §4 "Connection"): the rules are core/device's pure functions; this
// keeps their state per device and sets one timer for the next deadline (4 s without heartbeat, 5 s without progress).

export interface TrackedDevice {
  readonly status: DeviceStatus;
  readonly connection: ConnectionStatus;
  /** The live running test, cleared 5 s after updates stop and on abnormal close. */
  readonly progress: RunningTest | null;
}

export interface DeviceTracker {
  /** Take status and connection from a fresh device list (a connected device then needs heartbeats within 4 s). */
  seed(devices: readonly Device[]): void;
  /** A connection event: CONNECTED is a heartbeat, DISCONNECTED a disconnection event. */
  connection(deviceSn: string, connection: ConnectionStatus): void;
  status(deviceSn: string, status: DeviceStatus): void;
  progress(deviceSn: string, progress: RunningTest): void;
  /** The live socket closed without being asked to: every device is disconnected and loses its live progress. */
  abnormalClose(): void;
  get(deviceSn: string): TrackedDevice | undefined;
  /** Forget every device (logout). */
  clear(): void;
  dispose(): void;
}

interface Entry {
  conn: DeviceConnection;
  progress: RunningTest | null;
}

export function createDeviceTracker(clock: Clock, onChange: () => void): DeviceTracker {
  const entries = new Map<string, Entry>();
  let timer: TimerId | null = null;
  let timerAt: number | null = null;

  const entry = (sn: string): Entry => {
    let e = entries.get(sn);
    if (!e) entries.set(sn, (e = { conn: initialConnection, progress: null }));
    return e;
  };

  function schedule() {
    const deadlines = [...entries.values()].map((e) => nextDeadline(e.conn)).filter((t): t is number => t !== null);
    const at = deadlines.length ? Math.min(...deadlines) : null;
    if (at === timerAt) return;
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    timerAt = at;
    if (at !== null) timer = clock.setTimeout(expire, Math.max(0, at - clock.now()));
  }

  function expire() {
    timer = null;
    timerAt = null;
    const now = clock.now();
    let changed = false;
    for (const e of entries.values()) {
      const next = tick(e.conn, now);
      if (next.connection !== e.conn.connection || next.lastProgressAt !== e.conn.lastProgressAt) changed = true;
      e.conn = next;
      if (next.lastProgressAt === null && e.progress !== null) e.progress = null;
    }
    schedule();
    if (changed) onChange();
  }

  const changed = () => {
    schedule();
    onChange();
  };

  /** What `get` answers of the entry now, as one comparable text. */
  const shown = (e: Entry, now: number) =>
    `${e.conn.status}|${connectionAt(e.conn, now)}|${hasLiveProgressAt(e.conn, now) ? "live" : "none"}`;
  /** Applies an event to one device; readers hear of it only when what they read changed (a heartbeat repeating what
   * the tile shows moves the 4 s deadline, nothing else: with 50 headsets that is most live messages). */
  const update = (sn: string, apply: (e: Entry) => void) => {
    const e = entry(sn);
    const now = clock.now();
    const before = shown(e, now);
    apply(e);
    if (shown(e, now) === before) schedule();
    else changed();
  };

  return {
    seed(devices) {
      const now = clock.now();
      for (const d of devices) {
        const e = entry(d.deviceSn);
        const withStatus = onStatus(e.conn, d.status);
        e.conn = d.connection === ConnectionStatus.Connected ? onHeartbeat(withStatus, now) : onDisconnection(withStatus);
      }
      changed();
    },
    connection(sn, connection) {
      update(sn, (e) => {
        e.conn = connection === ConnectionStatus.Connected ? onHeartbeat(e.conn, clock.now()) : onDisconnection(e.conn);
      });
    },
    status(sn, status) {
      update(sn, (e) => {
        e.conn = onStatus(e.conn, status);
      });
    },
    progress(sn, progress) {
      const e = entry(sn);
      e.conn = onProgress(e.conn, clock.now());
      e.progress = progress;
      changed();
    },
    abnormalClose() {
      for (const e of entries.values()) {
        e.conn = onAbnormalClose(e.conn);
        e.progress = null;
      }
      changed();
    },
    get(sn) {
      const e = entries.get(sn);
      if (!e) return undefined;
      const now = clock.now();
      return {
        status: e.conn.status,
        connection: connectionAt(e.conn, now),
        progress: hasLiveProgressAt(e.conn, now) ? e.progress : null,
      };
    },
    clear() {
      entries.clear();
      schedule();
    },
    dispose() {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      timerAt = null;
    },
  };
}
