import type { Database } from "../db/database.ts";
import type { Storage } from "../db/open.ts";
import { localBus, type Bus } from "./bus.ts";
import { postgresBus } from "./postgres-bus.ts";

/** The bus the database calls for: PGlite is one process's own database, PostgreSQL may be shared by several. */
export const openBus = (storage: Storage, db: Database): Promise<Bus> =>
  storage.kind === "postgres" ? postgresBus(storage.url, db) : Promise.resolve(localBus());
