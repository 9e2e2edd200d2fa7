import type { Database } from "../db/database.ts";
import type { Storage } from "../db/open.ts";
import { localBus, type Bus } from "./bus.ts";
import { postgresBus } from "./postgres-bus.ts";
import { localRoster, postgresRoster, type LeaseTiming, type Roster } from "./roster.ts";

/** The bus and roster the database calls for: PGlite is one process's own database, PostgreSQL may be shared by several. */
export const openBus = async (storage: Storage, db: Database, lease?: LeaseTiming): Promise<{ bus: Bus; roster: Roster }> => {
  if (storage.kind !== "postgres") return { bus: localBus(), roster: localRoster() };
  const bus = await postgresBus(storage.url, db);
  try {
    return { bus, roster: await postgresRoster(db, bus, lease) };
  } catch (e) {
    await bus.close();
    throw e;
  }
};
