import type { DeviceBattery } from "../../../core/model/device.ts";
import type { Database } from "../db/database.ts";
import { writeInChunks } from "../db/chunks.ts";
import { log } from "../log.ts";

// Headsets' presence (battery, last seen) in memory (issue 18): every connected headset beats once a second, and a
// database transaction per beat kept the event loop busy with the database most of the time. A heartbeat now only
// updates this book; the socket tells browsers of a battery change, and that the headset is alive every 2 s. The book is written to
// the database every `flushMs` for the devices heard since, FLUSH_CHUNK a statement, and the socket writes at once on a change
// of connection state (deviceChange readers overlay the book, so nobody sees the database's few seconds of lag).

/** Devices per presence statement: about 10 ms of PGlite's time. */
const FLUSH_CHUNK = 200;

interface Heard {
  battery: DeviceBattery;
  lastSeen: string;
  /** Heard since the last flush. */
  dirty: boolean;
}

export interface PresenceBook {
  /** A heartbeat: records it; true when the battery differs from the one heard before (browsers should be told). */
  heartbeat(deviceSn: string, battery: DeviceBattery, at: string): boolean;
  /** A heartbeat another process heard (its live event): shown here too, written by that process. */
  remember(deviceSn: string, battery: DeviceBattery, at: string): void;
  /** What was heard of the device since the server started (written with a change of connection state). */
  heard(deviceSn: string): { readonly battery: DeviceBattery; readonly lastSeen: string } | undefined;
  /** The stored device with the battery and last-seen heard since (unchanged when nothing was heard). */
  overlay<T extends { readonly deviceSn: string; readonly battery: DeviceBattery; readonly lastSeen: string | null }>(row: T): T;
  /** Writes the presence heard since the last flush, one statement for all devices. */
  flush(): Promise<void>;
  /** Flushes and stops the timer (server close). */
  close(): Promise<void>;
}

const sameBattery = (a: DeviceBattery, b: DeviceBattery) =>
  a.vr.level === b.vr.level &&
  a.vr.charging === b.vr.charging &&
  a.clicker.level === b.clicker.level &&
  a.clicker.charging === b.clicker.charging;

export const presenceBook = (db: Database, flushMs: number): PresenceBook => {
  const book = new Map<string, Heard>();
  let flushing: Promise<void> = Promise.resolve();

  const writeDirty = async () => {
    const heard: Array<{ sn: string; battery: string; lastSeen: string }> = [];
    for (const [sn, h] of book) {
      if (!h.dirty) continue;
      h.dirty = false;
      heard.push({ sn, battery: JSON.stringify(h.battery), lastSeen: h.lastSeen });
    }
    // Every beating headset is heard between two flushes: 2,000 of them in one statement held PGlite 70-150 ms.
    await writeInChunks(heard, FLUSH_CHUNK, (chunk) =>
      db
        .query(
          `update devices set battery = heard.battery::jsonb, last_seen = heard.last_seen
         from (select unnest($1::text[]) as sn, unnest($2::text[]) as battery, unnest($3::text[]) as last_seen) heard
         where devices.device_sn = heard.sn`,
          [chunk.map((h) => h.sn), chunk.map((h) => h.battery), chunk.map((h) => h.lastSeen)],
        )
        .then(() => undefined),
    );
  };
  const flush = () => {
    flushing = flushing.then(writeDirty).catch((e: unknown) => log.warn("presence_flush_failed", { error: e }));
    return flushing;
  };
  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    heartbeat(sn, battery, at) {
      const before = book.get(sn);
      book.set(sn, { battery, lastSeen: at, dirty: true });
      return before === undefined || !sameBattery(before.battery, battery);
    },
    remember(sn, battery, at) {
      const before = book.get(sn);
      if (before && before.lastSeen > at) return;
      book.set(sn, { battery, lastSeen: at, dirty: before?.dirty ?? false });
    },
    heard(sn) {
      const h = book.get(sn);
      return h && { battery: h.battery, lastSeen: h.lastSeen };
    },
    overlay(row) {
      const h = book.get(row.deviceSn);
      if (!h) return row;
      // A hello or status stores its own last-seen at once; ISO times in UTC order as text.
      return { ...row, battery: h.battery, lastSeen: row.lastSeen !== null && row.lastSeen > h.lastSeen ? row.lastSeen : h.lastSeen };
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
};
