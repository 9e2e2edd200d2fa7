import type { Database } from "../db/database.ts";
import { log } from "../log.ts";
import type { Bus } from "./bus.ts";

// Which process holds which headset (issue 17 §1, device presence), so a process whose headsets are elsewhere can
// reach them and a process that dies is noticed. On PostgreSQL every process keeps a lease in server_processes
// (migration 011) and names the headsets it holds in device_presence; the others delete a lease that ran out and hear
// that process's headsets as orphans (the device side records them disconnected). A process that finds its own lease
// gone (it was cut off or stalled longer than the lease) joins again and claims its headsets anew (`onRejoin`).
// On PGlite there is one process: nothing is elsewhere and nobody dies unnoticed.

export interface Holder {
  readonly processId: string;
  readonly credentialHash: string;
}

export interface Roster {
  /** This process holds the headset's socket now (admitted with this credential). */
  claim(deviceSn: string, credentialHash: string): Promise<void>;
  /** The socket closed: true when this process still held the headset (no other took it over meanwhile). */
  release(deviceSn: string): Promise<boolean>;
  /** The live process holding the headset, when it is another one. */
  elsewhere(deviceSn: string): Promise<Holder | undefined>;
  /** Headsets of processes that died (or shut down): no process holds them any more. */
  onOrphans(handler: (deviceSns: string[]) => Promise<void>): void;
  /** How many processes hold a live lease, this one included. */
  processes(): Promise<number>;
  /** The processes whose lease has not been swept away, this one included. */
  liveProcesses(): Promise<string[]>;
  /** This process's lease had run out and was taken again: its headsets must be claimed again. */
  onRejoin(handler: () => Promise<void>): void;
  close(): Promise<void>;
}

export const localRoster = (): Roster => ({
  claim: async () => undefined,
  release: async () => true,
  elsewhere: async () => undefined,
  processes: async () => 1,
  liveProcesses: async () => [],
  onOrphans: () => undefined,
  onRejoin: () => undefined,
  close: async () => undefined,
});

export interface LeaseTiming {
  /** How long a lease lasts without renewal. */
  readonly leaseMs: number;
  /** How often it is renewed and the others' are checked. */
  readonly renewMs: number;
}

/** Renewed every 500 ms, a lease of 2 s: a dead process's headsets are disconnected within 2.5 s, inside the seeds' 4 s. */
export const LEASE: LeaseTiming = { leaseMs: 2_000, renewMs: 500 };

export const postgresRoster = async (db: Database, bus: Bus, timing: LeaseTiming = LEASE): Promise<Roster> => {
  const me = bus.processId;
  const orphanHandlers: Array<(sns: string[]) => Promise<void>> = [];
  const rejoinHandlers: Array<() => Promise<void>> = [];
  let closed = false;

  /** Renews this process's lease; true when the row had to be made again (first start, or after it was taken away). */
  const renew = async () => {
    const rows = await db.query<{ fresh: boolean }>(
      `insert into server_processes (id, lease_until) values ($1, clock_timestamp() + $2::int * interval '1 millisecond')
       on conflict (id) do update set lease_until = excluded.lease_until returning (xmax = 0) as fresh`,
      [me, timing.leaseMs],
    );
    return rows[0]?.fresh === true;
  };
  /** Deletes the leases that ran out and hands on the headsets no live process holds. */
  const sweep = async () => {
    const orphans = await db.transaction(async (tx) => {
      await tx.query("delete from server_processes where lease_until < clock_timestamp()");
      const rows = await tx.query<{ device_sn: string }>(
        "delete from device_presence p where not exists (select 1 from server_processes s where s.id = p.process_id) returning device_sn",
      );
      return rows.map((r) => r.device_sn);
    });
    if (orphans.length === 0) return;
    log.info("process_headsets_orphaned", { by: me, headsets: orphans.length });
    for (const h of orphanHandlers) await h(orphans);
  };

  await renew();
  let renewedAt = Date.now();
  let busy = false;
  const timer = setInterval(() => {
    if (busy || closed || !bus.ready) return;
    busy = true;
    void (async () => {
      const fresh = await renew();
      const before = renewedAt;
      renewedAt = Date.now();
      if (fresh) {
        log.warn("process_rejoined", { process: me });
        for (const h of rejoinHandlers) await h();
      }
      // Back from an outage longer than a lease, the others were most likely cut off too: they get one lease's time
      // to renew before this process counts them dead.
      if (renewedAt - before <= timing.leaseMs) await sweep();
    })()
      .catch(() => undefined) // the database away: the pool logs it once; the next tick tries again
      .finally(() => (busy = false));
  }, timing.renewMs);
  timer.unref();

  return {
    async claim(sn, credentialHash) {
      await db.query(
        `insert into device_presence (device_sn, process_id, credential_hash) values ($1, $2, $3)
         on conflict (device_sn) do update set process_id = excluded.process_id, credential_hash = excluded.credential_hash, since = clock_timestamp()`,
        [sn, me, credentialHash],
      );
    },
    async release(sn) {
      return (
        (await db.query("delete from device_presence where device_sn = $1 and process_id = $2 returning device_sn", [sn, me])).length > 0
      );
    },
    async elsewhere(sn) {
      const rows = await db.query<{ process_id: string; credential_hash: string }>(
        `select p.process_id, p.credential_hash from device_presence p join server_processes s on s.id = p.process_id
         where p.device_sn = $1 and p.process_id <> $2 and s.lease_until >= clock_timestamp()`,
        [sn, me],
      );
      return rows[0] && { processId: rows[0].process_id, credentialHash: rows[0].credential_hash };
    },
    async processes() {
      return (
        (await db.query<{ n: number }>("select count(*)::int as n from server_processes where lease_until >= clock_timestamp()"))[0]?.n ?? 1
      );
    },
    async liveProcesses() {
      // Every lease not yet swept, even one just run out: a process is forgotten on the bus only once its lease is gone,
      // and then its next renewal finds it gone and it rejoins (and tells the bus again what it holds).
      return (await db.query<{ id: string }>("select id from server_processes")).map((r) => r.id);
    },
    onOrphans: (h) => void orphanHandlers.push(h),
    onRejoin: (h) => void rejoinHandlers.push(h),
    async close() {
      closed = true;
      clearInterval(timer);
      // Leaving: the others hear this process's headsets as orphans at their next sweep.
      await db.query("delete from server_processes where id = $1", [me]).catch(() => undefined);
    },
  };
};
