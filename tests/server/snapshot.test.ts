import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Queryable } from "../../simulator/server/db/database.ts";
import { insertDevice } from "../../simulator/server/store/devices.ts";
import { newId } from "../../simulator/server/store/ids.ts";
import { login, ok, startTestServer, type Backend, type TestServer } from "./harness.ts";

// Issue 16 point 4: device/all answers one snapshot (a card being dragged between lanes shows in exactly one lane in
// every answer, never twice or not at all) in a constant number of queries, whatever the number of devices. Runs on
// PGlite and PostgreSQL (where reads and drags really overlap) and prints the reads checked and the torn ones.

const snapshotSuite = (backend: Backend) =>
  describe(`device/all on ${backend}`, () => {
    let server: TestServer;
    let token: string;
    beforeAll(async () => {
      server = await startTestServer(backend);
      token = await login(server.url, "manager");
    }, 180_000);
    afterAll(async () => server?.drop());

    it("under concurrent drags every answer shows each card in exactly one lane", async () => {
      const before = await ok(server.url, "device.all", {}, token);
      const [a, b] = before;
      const moved = a!.perimetries[0]!.id;
      let stop = false;
      let drags = 0;
      const dragger = (async () => {
        for (let i = 0; i < 60; i++) {
          const lanes = await ok(server.url, "device.all", {}, token);
          const from = lanes.find((d) => d.perimetries.some((p) => p.id === moved))!;
          const to = lanes.find((d) => d.id === (from.id === a!.id ? b!.id : a!.id))!;
          await ok(
            server.url,
            "device.dragAndDropPerimetry",
            {
              body: {
                movedPerimetryId: moved,
                from: {
                  deviceId: from.id,
                  perimetriesIds: from.perimetries.map((p) => p.id).filter((id) => id !== moved),
                  revision: from.revision,
                },
                to: { deviceId: to.id, perimetriesIds: [...to.perimetries.map((p) => p.id), moved], revision: to.revision },
              },
            },
            token,
          );
          drags++;
        }
        stop = true;
      })();
      let reads = 0;
      const torn: string[] = [];
      const reader = async () => {
        while (!stop) {
          const lanes = await ok(server.url, "device.all", {}, token);
          reads++;
          const ids = lanes.flatMap((d) => d.perimetries.map((p) => p.id));
          const shown = ids.filter((id) => id === moved).length;
          if (shown !== 1 || new Set(ids).size !== ids.length) torn.push(`read ${reads}: the dragged card shown ${shown} times`);
        }
      };
      await Promise.all([dragger, reader(), reader(), reader(), reader()]);
      console.log(
        `[snapshot ${backend}] device/all: ${reads} reads during ${drags} drags, ${torn.length} showed a card twice or not at all`,
      );
      expect(torn).toEqual([]);
      expect(reads).toBeGreaterThan(drags);
    }, 120_000);

    it("answers in the same number of queries for 3 devices as for 23", async () => {
      const counted = async () => {
        let queries = 0;
        const original = server.db.snapshot.bind(server.db);
        server.db.snapshot = (work) =>
          original((q) => work({ query: (sql, params) => (queries++, q.query(sql, params)) } satisfies Queryable));
        try {
          const devices = await ok(server.url, "device.all", {}, token);
          return { queries, devices: devices.length };
        } finally {
          server.db.snapshot = original;
        }
      };
      const few = await counted();
      const org = (await server.db.query<{ organisation_id: string }>("select organisation_id from users where username = 'manager'"))[0]!
        .organisation_id;
      for (let i = 0; i < 20; i++)
        await server.db.transaction((tx) => insertDevice(tx, org, newId(), `VR-SNAP-${i}`, `Snap ${i}`, new Date().toISOString()));
      const many = await counted();
      console.log(
        `[snapshot ${backend}] device/all: ${few.queries} queries for ${few.devices} devices, ${many.queries} for ${many.devices}`,
      );
      expect(many.devices).toBe(few.devices + 20);
      expect(many.queries).toBe(few.queries);
      expect(few.queries).toBeLessThanOrEqual(4);
    }, 60_000);
  });

snapshotSuite("pglite");
if (process.env.TEST_DATABASE_URL) snapshotSuite("postgres");
else describe("device/all on postgres", () => it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));
