import { randomUUID } from "node:crypto";
import type { Database } from "../db/database.ts";
import type { Storage } from "../db/open.ts";
import { localBus, type Bus } from "./bus.ts";
import { natsTransport } from "./nats-transport.ts";
import { postgresTransport } from "./postgres-transport.ts";
import { localRoster, postgresRoster, type LeaseTiming, type Roster } from "./roster.ts";
import { routedBus } from "./routed-bus.ts";
import type { BusTransport } from "./transport.ts";

/** How often the bus forgets processes the roster no longer counts alive. */
const KEEP_PEERS_MS = 5_000;

export interface BusOptions {
  /** NATS_URL: the processes talk over this NATS server instead of LISTEN/NOTIFY on their database. */
  readonly natsUrl?: string | undefined;
  readonly lease?: LeaseTiming;
}

/** The bus and roster the database calls for: PGlite is one process's own database, PostgreSQL may be shared by
 * several, which talk over LISTEN/NOTIFY on it or, given a NATS server, over NATS (the roster stays in the database). */
export const openBus = async (storage: Storage, db: Database, options: BusOptions = {}): Promise<{ bus: Bus; roster: Roster }> => {
  if (storage.kind !== "postgres") return { bus: localBus(), roster: localRoster() };
  const processId = randomUUID();
  const transport: BusTransport = options.natsUrl
    ? await natsTransport(options.natsUrl, processId)
    : await postgresTransport(storage.url, db, processId);
  const bus = await routedBus(transport, processId).catch(async (e: unknown) => {
    await transport.close();
    throw e;
  });
  try {
    const roster = await postgresRoster(db, bus, options.lease);
    // Back after its lease ran out: the others dropped its lease and, with it, what it holds on the bus.
    roster.onRejoin(async () => bus.rejoined());
    const keep = setInterval(() => {
      roster.liveProcesses().then(
        (alive) => bus.keepPeers(alive),
        () => undefined,
      );
    }, KEEP_PEERS_MS);
    keep.unref();
    return {
      bus,
      roster: {
        ...roster,
        close: async () => {
          clearInterval(keep);
          await roster.close();
        },
      },
    };
  } catch (e) {
    await bus.close();
    throw e;
  }
};
