import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { call, login, ok, testStorage } from "./harness.ts";

// Data survive a restart, also when the process is killed with SIGKILL right after an acknowledged write: the server
// answers a write only once its transaction is committed and flushed to the data directory (PGlite) or acknowledged by
// PostgreSQL. The server runs as `npm start` does (simulator/start.ts) in a child process.

const root = fileURLToPath(new URL("../../", import.meta.url));
const password = "Restart-Pass-1";

const startChild = (env: Record<string, string>) =>
  new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "simulator/start.ts"], {
      cwd: root,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", HEADSETS: "0", DEMO_PASSWORD: password, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 90_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /Isopter listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    });
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });

const stopped = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });

const scenario = (label: string, env: () => Promise<Record<string, string>>) =>
  it(`${label}: writes acknowledged just before SIGKILL are there after the restart, and a clean restart keeps everything`, async () => {
    const vars = await env();
    const first = await startChild(vars);
    let token = await login(first.url, "manager", password);
    const names = ["Kill One", "Kill Two", "Kill Three", "Kill Four", "Kill Five"];
    const ids: string[] = [];
    for (const name of names)
      ids.push(
        (
          await ok(
            first.url,
            "patient.register",
            { body: { name, uniqueId: `K-${name.slice(5)}`, gender: 1, lang: "en", birthdate: "1966-06-06" } },
            token,
          )
        ).id,
      );
    const trashed = await call(first.url, "patient.trash", { query: { id: ids[0]! } }, token);
    expect(trashed.status).toBe(200);
    first.child.kill("SIGKILL"); // right after the acknowledgement, no grace
    await stopped(first.child, "SIGKILL");

    const second = await startChild(vars);
    token = await login(second.url, "manager", password);
    // Six acknowledged writes (five registrations, one trash): each one lost if its effect is not there.
    const acknowledged = ids.length + 1;
    let lost = 0;
    for (const [i, id] of ids.entries()) {
      const got = await call(second.url, "patient.get", { query: { id } }, token);
      if (got.status !== 200 || got.data?.name !== names[i]) lost += 1;
      if (i === 0 && (got.status !== 200 || got.data?.trashedAt === null)) lost += 1;
    }
    console.log(`[restart ${label}] SIGKILL right after the last acknowledgement: ${acknowledged} writes acknowledged, ${lost} lost`);
    expect(lost).toBe(0);
    // The demo clinic is not seeded twice.
    expect((await ok(second.url, "patient.all", {}, token)).filter((p) => p.name === "Anna Schmidt")).toHaveLength(1);
    await ok(second.url, "patient.restore", { query: { id: ids[0]! } }, token);
    await stopped(second.child, "SIGTERM");

    const third = await startChild(vars);
    token = await login(third.url, "manager", password);
    expect((await ok(third.url, "patient.get", { query: { id: ids[0]! } }, token)).trashedAt).toBeNull();
    await stopped(third.child, "SIGTERM");
  }, 300_000);

describe("persistence across restarts and SIGKILL", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  scenario("PGlite in DATA_DIR", async () => {
    const dir = mkdtempSync(join(tmpdir(), "isopter-restart-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return { DATA_DIR: dir };
  });

  if (process.env.TEST_DATABASE_URL)
    scenario("PostgreSQL via DATABASE_URL", async () => {
      const { storage, drop } = await testStorage("postgres");
      cleanups.push(drop);
      return { DATABASE_URL: (storage as { url: string }).url };
    });
});
