import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { refreshUpstream, upstreamFile } from "../../deploy/ready-watch.ts";

// isopter-ready-watch (deploy/README.md): nginx's upstream file from each process's /api/ready. A process that is not
// ready is marked down; when none is, all stay up (each answers 503 with Retry-After itself).

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/** A process whose /api/ready answers `status`. */
const process_ = (status: number) =>
  new Promise<number>((resolve) => {
    const s = createServer((req, res) => res.writeHead(req.url === "/api/ready" ? status : 404).end("{}"));
    servers.push(s);
    s.listen(0, "127.0.0.1", () => resolve((s.address() as { port: number }).port));
  });

const lines = (text: string) => text.split("\n").filter((l) => l.startsWith("server"));

describe("isopter-ready-watch", () => {
  it("marks the processes that are not ready down, keeping the passive checks", () => {
    expect(lines(upstreamFile([4171, 4172, 4173], [true, false, true]))).toEqual([
      "server 127.0.0.1:4171 max_fails=1 fail_timeout=5s;",
      "server 127.0.0.1:4172 max_fails=1 fail_timeout=5s down;",
      "server 127.0.0.1:4173 max_fails=1 fail_timeout=5s;",
    ]);
  });

  it("keeps every process up when none is ready", () => {
    expect(lines(upstreamFile([4171, 4172], [false, false])).some((l) => l.includes("down"))).toBe(false);
  });

  it("asks each process's /api/ready and rewrites the file only when the picture changed", async () => {
    const ready = await process_(200);
    const draining = await process_(503);
    const gone = await process_(200);
    servers.at(-1)!.close(); // nothing listens there any more
    const file = join(mkdtempSync(join(tmpdir(), "isopter-ready-")), "upstream.conf");
    expect(await refreshUpstream([ready, draining, gone], file)).toBe(true);
    expect(lines(readFileSync(file, "utf8")).map((l) => l.endsWith("down;"))).toEqual([false, true, true]);
    expect(await refreshUpstream([ready, draining, gone], file)).toBe(false);
  });
});
