import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy } from "../../core/model/enums.ts";
import { startHeadsets } from "../../simulator/headset/index.ts";
import { seedDemo } from "../../simulator/server/demo/seed.ts";
import { openPglite } from "../../simulator/server/db/pglite.ts";
import { startServer, type RunningServer } from "../../simulator/server/server.ts";
import { DEMO_PASSWORD, headsetKeys, login, ok } from "./harness.ts";

// Issue 16 point 3, database faults. On PostgreSQL (a throwaway cluster of this suite's own, on a free port, asking for
// a password, so the other suites' cluster is not disturbed): the server is stopped and started again under writes and
// a virtual headset in stand-alone mode; meanwhile calls answer 503 with Retry-After in the envelope, the headset keeps
// its results in its outbox, and within seconds of the database's return everything works again with no acknowledged
// write lost. On PGlite: a second server on the same DATA_DIR refuses to start and names the process holding it, and
// of several servers starting at once on a DATA_DIR with a stale lock, one takes it over.
// Start-up failures are one line naming the directory or URL and the cause. (SIGKILL after acknowledged writes:
// restart.test.ts.)

const root = fileURLToPath(new URL("../../", import.meta.url));
const hasPostgres =
  existsSync("/usr/lib/postgresql") &&
  execFileSync("bash", ["-c", "ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null || true"]).toString().trim() !== "";

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

const cluster = (...args: string[]) =>
  execFileSync("bash", ["scripts/pg-throwaway.sh", ...args], { cwd: root, env: { ...process.env, PG_PASSWORD: "fault-Pass-1" } })
    .toString()
    .trim();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (what: string, test: () => boolean | Promise<boolean>, timeoutMs: number) => {
  const start = Date.now();
  while (!(await test())) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
  return Date.now() - start;
};

/** `node simulator/start.ts` as npm start runs it (as another user if `user` is given); resolves when it listens or exits. */
const startChild = (env: Record<string, string>, user?: { uid: number; gid: number }) =>
  new Promise<{ child: ChildProcess; url?: string; code?: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "simulator/start.ts"], {
      cwd: root,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", HEADSETS: "0", DEMO_PASSWORD, DATABASE_URL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
      ...user,
    });
    let out = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /Isopter listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, stderr });
    });
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("exit", (code) => resolve({ child, code, stderr }));
  });

const measurementConfig = (patientId: string) => ({
  patientId,
  displayName: "Fault",
  eye: Eye.Right,
  pattern: Pattern.P10_2,
  strategy: Strategy.Supra,
  stimuliUpdate: StimuliUpdate.Ms2000,
  stimuliSize: StimulusSize.III,
  stimuliShowtime: Showtime.Ms200,
  sorsStage: 36 as const,
  playSound: false,
  trackGaze: true,
  audioGuide: true,
  tutorial: false,
});

describe.skipIf(!hasPostgres)("PostgreSQL stopped and started again under load", () => {
  const dir = mkdtempSync(join(tmpdir(), "isopter-fault-pg-"));
  let port: number;
  let url: string;
  let server: RunningServer;

  beforeAll(async () => {
    port = await freePort();
    const base = cluster("start", dir, String(port));
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query("create database isopter_fault");
    await admin.end();
    url = base.replace(/\/postgres$/, "/isopter_fault");
    server = await startServer({ storage: { kind: "postgres", url }, port: 0, webRoot: "/nonexistent-web-root" });
    await seedDemo(server.db, { password: DEMO_PASSWORD, headsets: 3 });
  }, 180_000);
  afterAll(async () => {
    await server?.close().catch(() => undefined);
    cluster("stop", dir);
  });

  it("503 with Retry-After while away, the headset's results wait in its outbox, all back within seconds, no acknowledged write lost", async () => {
    const token = await login(server.url, "manager");
    const sn = (await ok(server.url, "device.all", {}, token))[0]!.deviceSn;
    const fleet = await startHeadsets({
      url: `${server.url.replace(/^http/, "ws")}/device`,
      serials: [sn],
      keys: await headsetKeys(server, [sn]),
      speed: 60,
      // Healthy: the patient's id is random, and an advanced defect's long runs of unseen stimuli would pause the test
      // for a silent patient now and then (nobody here resumes it).
      profile: "healthy",
      log: () => undefined,
    });
    const headset = fleet.headsets[0]!;
    try {
      await until("headset connected", () => headset.connected, 20_000);
      const patient = await ok(
        server.url,
        "patient.register",
        { body: { name: "Fault Tolerant", uniqueId: "FT-1", gender: 1, lang: "en", birthdate: "1950-01-01" } },
        token,
      );
      await ok(server.url, "device.standalone", { query: { deviceSn: sn }, body: measurementConfig(patient.id) }, token);
      await until("a first stand-alone result stored", () => headset.resultsProduced > 0 && headset.pendingResults === 0, 60_000);

      // Writers: patients registered one after another by four clients; every 200 is an acknowledged write.
      const acknowledged: string[] = [];
      const unavailable: Array<{ retryAfter: string | null; responseType: unknown; message: unknown }> = [];
      const other: string[] = [];
      let lastOkAt = 0;
      let stop = false;
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const res = await fetch(`${server.url}/api/patient/register`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: JSON.stringify({ name: `Load ${w} ${i}`, uniqueId: `LOAD-${w}-${i}`, gender: 0, lang: "en", birthdate: "1970-01-01" }),
          }).catch((e: Error) => ({ status: 0, headers: new Headers(), json: async () => ({ error: e.message }) }));
          const body = (await res.json()) as { data?: { id?: string; message?: string }; responseType?: string };
          if (res.status === 200) acknowledged.push(body.data!.id!), (lastOkAt = Date.now());
          else if (res.status === 503)
            unavailable.push({ retryAfter: res.headers.get("retry-after"), responseType: body.responseType, message: body.data?.message });
          else other.push(`${res.status} ${JSON.stringify(body).slice(0, 200)}`);
          await sleep(res.status === 503 ? 200 : 20);
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      await sleep(1_500);

      cluster("pause", dir);
      const downAt = Date.now();
      await until("503 answered while the database is away", () => unavailable.length >= 4, 20_000);
      await until("a stand-alone result waiting in the headset's outbox", () => headset.pendingResults > 0, 60_000);
      const waiting = headset.pendingResults;
      const downFor = Date.now() - downAt;

      cluster("resume", dir, String(port));
      const upAt = Date.now();
      await until("a write acknowledged after the return", () => lastOkAt > upAt, 30_000);
      const recoveryMs = lastOkAt - upAt;
      const drainMs = await until("the headset's outbox drained", () => headset.pendingResults === 0, 45_000);
      stop = true;
      await Promise.all(writers);
      await fleet.stop();

      const found = new Set(
        (await server.db.query<{ id: string }>("select id from patients where id = any($1::text[])", [acknowledged])).map((r) => r.id),
      );
      const lost = acknowledged.filter((id) => !found.has(id)).length;
      const stored = (
        await server.db.query<{ n: number }>("select count(*)::int as n from standalone_results where device_sn = $1", [sn])
      )[0]!.n;
      console.log(
        `[faults postgres] down ${(downFor / 1000).toFixed(1)} s: ${unavailable.length} answers 503, ${other.length} other failures; ` +
          `${acknowledged.length} writes acknowledged, ${lost} lost; first acknowledged write ${(recoveryMs / 1000).toFixed(1)} s after the database's return; ` +
          `headset: ${waiting} results waited in its outbox, drained ${(drainMs / 1000).toFixed(1)} s after the return, ${headset.resultsProduced} produced, ${stored} stored, ${headset.pendingResults} pending`,
      );
      expect(other).toEqual([]);
      expect(
        unavailable.every(
          (u) => u.responseType === "unavailable" && u.retryAfter !== null && Number(u.retryAfter) > 0 && typeof u.message === "string",
        ),
      ).toBe(true);
      expect(lost).toBe(0);
      expect(recoveryMs).toBeLessThan(10_000);
      expect(stored).toBe(headset.resultsProduced - headset.pendingResults);
    } finally {
      await fleet.stop();
    }
  }, 240_000);
});

describe("one server per DATA_DIR, and start-up failures in one line", () => {
  const dirs: string[] = [];
  const clusters: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), "isopter-fault-"));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    clusters.forEach((d) => cluster("stop", d));
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it("a second server on the same DATA_DIR refuses to start and names the process holding it; after SIGKILL of the first, the next start takes over", async () => {
    const dataDir = tmp();
    const first = await startChild({ DATA_DIR: dataDir });
    expect(first.url, first.stderr).toBeDefined();
    const second = await startChild({ DATA_DIR: dataDir });
    const lines = second.stderr.trim().split("\n");
    expect(second.code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      lines[0]!.match(new RegExp(`^Isopter: DATA_DIR ${join(dataDir, "pglite")} is in use by process ${first.child.pid} .*$`))?.[0],
    );
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    const third = await startChild({ DATA_DIR: dataDir });
    expect(third.url, third.stderr).toBeDefined();
    third.child.kill("SIGTERM");
    await new Promise((r) => third.child.once("exit", r));
    console.log(`[faults pglite] second server on one DATA_DIR: refused (${lines[0]}); after SIGKILL of the first: started`);
  }, 180_000);

  it("an unwritable DATA_DIR, or an unwritable DATA_DIR/pglite in a writable one, stops start-up with one line saying so", async () => {
    // Root writes whatever the modes say, so as root the server runs as nobody (65534; the spawn drops root's groups),
    // as a clinic's service account would; as another user, the modes apply to it directly.
    const asRoot = process.getuid?.() === 0;
    const user = asRoot ? { uid: 65534, gid: 65534 } : undefined;
    const base = tmp();
    chmodSync(base, 0o755); // nobody may look inside
    const readOnly = join(base, "read-only");
    mkdirSync(readOnly, { mode: 0o555 });
    const writable = join(base, "writable");
    mkdirSync(join(writable, "pglite"), { recursive: true });
    chmodSync(writable, 0o777);
    chmodSync(join(writable, "pglite"), 0o555);
    // A data directory made by another account (here root's), readable but not writable by the server's.
    const foreign = join(base, "foreign");
    const db = await openPglite(join(foreign, "pglite"));
    await db.close();
    chmodSync(foreign, 0o777);
    execFileSync("chmod", ["-R", "a+rX,go-w", join(foreign, "pglite")]);
    if (!asRoot) execFileSync("chmod", ["-R", "u-w", join(foreign, "pglite")]);
    const cases: Array<[string, RegExp]> = [
      [
        readOnly,
        new RegExp(`^Isopter: cannot use DATA_DIR ${readOnly}/pglite: not writable \\(EACCES: cannot create it in ${readOnly}\\)$`),
      ],
      [writable, new RegExp(`^Isopter: cannot use DATA_DIR ${writable}/pglite: not writable \\(EACCES\\)$`)],
      [foreign, new RegExp(`^Isopter: cannot use DATA_DIR ${foreign}/pglite: not writable \\(EACCES\\)$`)],
    ];
    const results = await Promise.all(cases.map(([dir]) => startChild({ DATA_DIR: dir }, user)));
    for (const [i, r] of results.entries()) {
      const lines = r.stderr.trim().split("\n");
      expect([r.code, lines.length, lines[0]], r.stderr).toEqual([1, 1, expect.stringMatching(cases[i]![1])]);
    }
    // Nothing was written where it could not be: no lock left behind, the foreign database untouched.
    expect(existsSync(join(writable, "pglite.lock"))).toBe(false);
    console.log(
      `[faults] unwritable DATA_DIR${asRoot ? " (server as uid 65534)" : ""}, one line each:\n${results.map((r) => `  ${r.stderr.trim()}`).join("\n")}`,
    );
  }, 180_000);

  it("a stale lock is taken over by one of several servers starting at once, never by two", async () => {
    const deadPid = await new Promise<number>((resolve) => {
      const gone = spawn(process.execPath, ["-e", ""]);
      gone.once("exit", () => resolve(gone.pid!));
    });
    // Processes that each, on "go", try to lock the same directory, and hold what they took until told to quit.
    const locker = `
      import { lockDataDir } from "./simulator/server/db/data-dir.ts";
      process.stdout.write("ready\\n");
      process.stdin.once("data", () => {
        try { lockDataDir(process.argv[1]); process.stdout.write("locked\\n"); }
        catch (e) { process.stdout.write("refused: " + e.message + "\\n"); }
        process.stdin.once("data", () => process.exit(0));
      });`;
    const rounds = 3;
    const racers = 6;
    const taken: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const dir = join(tmp(), "pglite");
      writeFileSync(`${dir}.lock`, JSON.stringify({ pid: deadPid, host: hostname(), startedAt: "2026-01-01T00:00:00.000Z" }));
      const children = Array.from({ length: racers }, () =>
        spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", locker, dir], {
          cwd: root,
          stdio: ["pipe", "pipe", "inherit"],
        }),
      );
      const outputs = children.map((c) => {
        let out = "";
        c.stdout!.on("data", (d: Buffer) => (out += d.toString()));
        return () => out;
      });
      await until("every racer ready", () => outputs.every((o) => o().includes("ready")), 120_000);
      for (const c of children) c.stdin!.write("go\n");
      await until("every racer answered", () => outputs.every((o) => /locked|refused/.test(o())), 30_000);
      const answers = outputs.map((o) => o().split("\n")[1]!);
      for (const c of children) c.stdin!.write("quit\n");
      await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once("exit", r)))));
      expect(
        answers.filter((a) => a === "locked"),
        answers.join("\n"),
      ).toHaveLength(1);
      for (const a of answers.filter((a) => a !== "locked"))
        expect(a).toMatch(/^refused: DATA_DIR .* is in use by process \d+ \(another Isopter server/);
      taken.push(answers.filter((a) => a === "locked").length);
    }
    console.log(`[faults pglite] stale lock, ${racers} servers starting at once, ${rounds} rounds: taken by ${taken.join(", ")} each`);
  }, 300_000);

  it("start-up failures name the directory or URL and the cause in one line", async () => {
    const file = join(tmp(), "a-file");
    writeFileSync(file, "not a directory");
    const foreign = tmp();
    mkdirSync(join(foreign, "pglite"));
    writeFileSync(join(foreign, "pglite", "notes.txt"), "someone else's files");
    const old = tmp();
    mkdirSync(join(old, "pglite"));
    writeFileSync(join(old, "pglite", "PG_VERSION"), "15\n");
    const corrupt = tmp();
    const db = await openPglite(join(corrupt, "pglite"));
    await db.close();
    truncateSync(join(corrupt, "pglite", "global", "pg_control"), 100);
    const closedPort = await freePort();
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ DATA_DIR: file }, new RegExp(`^Isopter: cannot use DATA_DIR ${file}(/pglite)?: a path part is a file, not a directory`)],
      [{ DATA_DIR: foreign }, new RegExp(`^Isopter: cannot use DATA_DIR ${foreign}/pglite: not a data directory`)],
      [{ DATA_DIR: old }, new RegExp(`^Isopter: cannot use DATA_DIR ${old}/pglite: version mismatch \\(made by PostgreSQL 15`)],
      [{ DATA_DIR: corrupt }, new RegExp(`^Isopter: cannot use DATA_DIR ${corrupt}/pglite: corrupt control file`)],
      [
        { DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/isopter` },
        new RegExp(`^Isopter: cannot use DATABASE_URL postgres://postgres@127.0.0.1:${closedPort}/isopter: unreachable host`),
      ],
    ];
    if (hasPostgres) {
      const dir = tmp();
      const port = await freePort();
      cluster("start", dir, String(port));
      cases.push([
        { DATABASE_URL: `postgres://postgres:wrong@127.0.0.1:${port}/postgres` },
        new RegExp(`^Isopter: cannot use DATABASE_URL postgres://postgres:\\*\\*\\*@127.0.0.1:${port}/postgres: wrong password$`),
      ]);
      clusters.push(dir);
    }
    const results = await Promise.all(cases.map(([env]) => startChild(env)));
    for (const [i, r] of results.entries()) {
      const lines = r.stderr.trim().split("\n");
      expect([r.code, lines.length, lines[0]], r.stderr).toEqual([1, 1, expect.stringMatching(cases[i]![1])]);
    }
    console.log(`[faults] start-up failures, one line each:\n${results.map((r) => `  ${r.stderr.trim()}`).join("\n")}`);
  }, 180_000);
});
