import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../simulator/server/server.ts";
import { freePort } from "../../scripts/cluster/processes.ts";

// Issue 18 (the cold start): `npm start` opens, migrates and seeds the database while the web app builds beside it,
// and the README promises that the printed address serves the web app. So startServer's beforeListen work runs on the
// open, migrated database before anything listens, and a failure there (a failed build) fails the start with the
// database closed in good order: its DATA_DIR is free for the next start.

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Whether something accepts TCP connections on 127.0.0.1:port. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

describe("work before the server listens (npm start: the demo seed and the web build)", () => {
  it("runs on the migrated database, and nothing answers on the port until it is done", async () => {
    const port = await freePort();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let tables: string[] = [];
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const starting = startServer({
      storage: { kind: "pglite", dataDir: undefined },
      host: "127.0.0.1",
      port,
      webRoot: "/nonexistent-web-root",
      async beforeListen(db) {
        tables = (await db.query<{ name: string }>("select table_name as name from information_schema.tables")).map((r) => r.name);
        entered();
        await released;
      },
    });
    await inside;
    expect(tables).toContain("schema_migrations");
    expect(tables).toContain("patients");
    expect(await accepts(port)).toBe(false);
    release();
    const server = await starting;
    try {
      expect(server.port).toBe(port);
      const ready = await fetch(`${server.url}/api/ready`);
      expect(ready.status).toBe(200);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("a failure there fails the start, never listens, and leaves the DATA_DIR free for the next start", async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "isopter-start-order-")), "pglite");
    dirs.push(join(dataDir, ".."));
    const port = await freePort();
    const failed = new Error("the web app's build failed");
    await expect(
      startServer({
        storage: { kind: "pglite", dataDir },
        host: "127.0.0.1",
        port,
        webRoot: "/nonexistent-web-root",
        beforeListen: async () => {
          throw failed;
        },
      }),
    ).rejects.toBe(failed);
    expect(await accepts(port)).toBe(false);
    const next = await startServer({ storage: { kind: "pglite", dataDir }, host: "127.0.0.1", port: 0, webRoot: "/nonexistent-web-root" });
    try {
      expect((await fetch(`${next.url}/api/ready`)).status).toBe(200);
    } finally {
      await next.close();
    }
  }, 60_000);
});
