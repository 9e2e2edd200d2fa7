import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../../simulator/server/db/database.ts";
import { ensureDevices } from "../../simulator/server/demo/seed.ts";
import { presenceBook } from "../../simulator/server/device/presence.ts";
import { startTestServer, type TestServer } from "./harness.ts";

// Issue 18 §2: heartbeats live in memory and are written to the database in batches. A clinic's whole fleet is heard
// between two flushes, and on PGlite one statement over all of it held the event loop for 70-150 ms at 2,000 headsets:
// the flush writes every device heard, in statements of a bounded size.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer("pglite");
}, 60_000);
afterAll(() => server?.close());

it("a flush writes the battery and last-seen of every device heard, 200 devices a statement at most", async () => {
  const serials = await ensureDevices(server.db, 450);
  const statements: number[] = [];
  const counting = {
    query: (sql: string, params?: ReadonlyArray<unknown>) => {
      if (sql.includes("update devices set battery")) statements.push((params![0] as string[]).length);
      return server.db.query(sql, params);
    },
  } as unknown as Database;
  const book = presenceBook(counting, 3_600_000);
  const heardAt = "2026-11-27T08:00:00.000Z";
  serials.forEach((sn, i) =>
    book.heartbeat(sn, { vr: { level: i % 101, charging: i % 2 === 0 }, clicker: { level: 50, charging: false } }, heardAt),
  );
  await book.close();
  expect(statements).toEqual([200, 200, 50]);
  const rows = await server.db.query<{ device_sn: string; battery: { vr: { level: number } }; last_seen: string }>(
    "select device_sn, battery, last_seen from devices where device_sn = any($1::text[]) order by device_sn",
    [serials],
  );
  expect(rows).toHaveLength(450);
  for (const r of rows) {
    expect(r.last_seen).toBe(heardAt);
    expect(r.battery.vr.level).toBe(serials.indexOf(r.device_sn) % 101);
  }
});
