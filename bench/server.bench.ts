// `npm run bench:server`: patient search latency with 1 and 8 clients over 10,000 and 100,000 patients (aim, issue 18:
// p99 <= 20 ms at 10,000 with 8 clients, on both databases), and live-event fan-out latency to 50 browser sockets, on
// PGlite in memory and on PostgreSQL in one run, ending with one table of both databases' rows, the aim and its verdict.
// The search clients run in a process of their own (search-clients.ts), as browsers do: the server is timed alone.
// Prints figures, each with the load average (the machine is shared); asserts nothing. PostgreSQL: BENCH_DATABASE_URL
// (it must be empty or an Isopter database), else a throwaway one (scripts/pg-throwaway.sh, on a free port, stopped at
// the end) when initdb is installed, else PGlite only, said so. BENCH_PATIENTS=10000,100000, BENCH_SECONDS (per client
// count, default 4) and BENCH_STORAGE=pglite,postgres bound the run.
import { spawn } from "node:child_process";
import { join } from "node:path";
import WebSocket from "ws";
import { startServer } from "../simulator/server/server.ts";
import { seedDemo } from "../simulator/server/demo/seed.ts";
import { newId } from "../simulator/server/store/ids.ts";
import { loadAverage, percentile } from "./figures.ts";
import { benchPostgres } from "./postgres.ts";

const SIZES = (process.env.BENCH_PATIENTS ?? "10000,100000").split(",").map(Number);
const SOCKETS = 50;
const SEARCH_SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CLIENTS = [1, 8];
const STORAGES = (process.env.BENCH_STORAGE ?? "pglite,postgres").split(",");
const AIM_P99_MS = 20;
const EVENTS = 200;
const password = "Bench-Pass-1";

const first = [
  "Anna",
  "Jonas",
  "Maria",
  "Luca",
  "Sophie",
  "Pierre",
  "Emma",
  "Daan",
  "Olivia",
  "James",
  "Lucia",
  "Carlos",
  "Ana",
  "Joao",
  "Li",
  "Zhang",
  "Greta",
  "Paul",
  "Claire",
  "Marco",
];
const last = [
  "Schmidt",
  "Weber",
  "Rossi",
  "Bianchi",
  "Martin",
  "Dubois",
  "de Vries",
  "Jansen",
  "Brown",
  "Wilson",
  "Hernandez",
  "Garcia",
  "Souza",
  "Oliveira",
  "Wei",
  "Min",
  "Fischer",
  "Becker",
  "Lambert",
  "Ferrari",
  "Taylor",
  "Moore",
  "Bakker",
  "Lefevre",
  "Conti",
];

const load = () => `load average ${loadAverage()}`;

/** Runs search-clients.ts in a child process (the clients' HTTP work off the server's event loop) and reads its answer. */
const searchClients = (job: string) =>
  new Promise<{ latencies: number[]; done: number; failed: number; elapsed: number }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "search-clients.ts"), job], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`search clients exited with ${code}`));
      resolve(JSON.parse(out) as { latencies: number[]; done: number; failed: number; elapsed: number });
    });
  });

interface SearchRow {
  database: string;
  patients: number;
  clients: number;
  p50: number;
  p99: number;
  perSecond: number;
  failed: number;
  load: string;
}

/** The whole bench on one database: search rows for the final table; the fan-out line printed as it comes. */
const benchOn = async (storage: { kind: "pglite"; dataDir: undefined } | { kind: "postgres"; url: string }, label: string) => {
  const rows: SearchRow[] = [];
  const server = await startServer({ storage, port: 0, webRoot: "/nonexistent" });
  await seedDemo(server.db, { password, headsets: 4, results: "fixtures" });
  const org = (await server.db.query<{ id: string }>("select organisation_id as id from users where username = 'manager'"))[0]!.id;
  const countPatients = async () =>
    (await server.db.query<{ n: number }>("select count(*)::int as n from patients where organisation_id = $1", [org]))[0]!.n;

  /** Registers bench patients up to `size` (names from the lists above with a number, unique ids B-n). */
  const fillTo = async (size: number) => {
    const t0 = performance.now();
    const now = new Date().toISOString();
    for (let start = await countPatients(); start < size; start += 500) {
      await server.db.transaction(async (tx) => {
        const values: unknown[] = [];
        const rows: string[] = [];
        for (let i = start; i < Math.min(size, start + 500); i++) {
          const k = values.length;
          rows.push(`($${k + 1}, $${k + 2}, $${k + 3}, $${k + 4}, $${k + 5}, lower($${k + 3} || ' B-${i}'), $${k + 6}, $${k + 6})`);
          const birth = `${1930 + (i % 80)}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
          values.push(
            newId(),
            org,
            `${first[i % first.length]} ${last[(i * 7) % last.length]} ${i}`,
            birth,
            JSON.stringify({ uniqueId: `B-${i}`, gender: i % 3, lang: "en" }),
            now,
          );
        }
        await tx.query(
          `insert into patients (id, organisation_id, name, birthdate, body, search, created_at, updated_at) values ${rows.join(", ")}`,
          values,
        );
      });
    }
    // Fresh statistics, as autovacuum would gather on a running clinic's database.
    await server.db.query("analyze patients");
    console.log(`${label}: ${await countPatients()} patients (filled in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${load()})`);
  };

  const login = async () => {
    const r = await fetch(`${server.url}/api/login`, { method: "POST", body: JSON.stringify({ username: "manager", password }) });
    return ((await r.json()) as { data: { accessToken: string } }).data.accessToken;
  };
  const token = await login();
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };

  // 1. patient search: `clients` clients in a process of their own (search-clients.ts).
  const terms = [
    ...first.map((f) => f.slice(0, 3).toLowerCase()),
    ...last.map((l) => l.slice(0, 4).toLowerCase()),
    "12",
    "999",
    "b-42",
    "maria rossi",
    "zz",
  ];
  const search = async (total: number, clients: number) => {
    const job = JSON.stringify({ url: server.url, token, clients, seconds: SEARCH_SECONDS, terms });
    const { latencies, done, failed, elapsed } = await searchClients(job);
    latencies.sort((a, b) => a - b);
    const row: SearchRow = {
      database: label,
      patients: total,
      clients,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      perSecond: done / elapsed,
      failed,
      load: loadAverage(),
    };
    rows.push(row);
    console.log(
      `${label}: patient search over ${total} patients, ${clients} client${clients === 1 ? "" : "s"}: p50 ${row.p50.toFixed(1)} ms, ` +
        `p99 ${row.p99.toFixed(1)} ms, ${row.perSecond.toFixed(0)} requests/s, ${failed} failed (${SEARCH_SECONDS} s; ${load()})`,
    );
  };
  for (const size of SIZES) {
    await fillTo(size);
    const total = await countPatients();
    for (const clients of CLIENTS) await search(total, clients);
  }

  // 2. fan-out: 50 logged-in live sockets; a patient update by HTTP; time from the request until each socket has the event.
  const sockets = await Promise.all(
    Array.from({ length: SOCKETS }, async () => {
      const ws = new WebSocket(`${server.url.replace("http", "ws")}/api/ws`);
      await new Promise((r) => ws.once("open", r));
      ws.send(JSON.stringify({ type: "logged_in", accessToken: token, message: "bench" }));
      ws.send(JSON.stringify({ type: "ping" }));
      await new Promise<void>((r) =>
        ws.on("message", function onPong(d) {
          if (JSON.parse(d.toString()).type === "pong") {
            ws.off("message", onPong);
            r();
          }
        }),
      );
      return ws;
    }),
  );
  const picked = (
    await server.db.query<{ id: string; unique_id: string }>(
      "select id, body->>'uniqueId' as unique_id from patients where organisation_id = $1 order by id limit 1",
      [org],
    )
  )[0]!;
  const patient = picked.id;
  const endToEnd: number[] = [];
  const fanOut: number[] = [];
  for (let e = 0; e < EVENTS; e++) {
    const name = `Fan Out ${e}`;
    let sentAt = 0;
    let publishedAt = 0;
    const arrivals = sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          const on = (d: WebSocket.RawData) => {
            const m = JSON.parse(d.toString()) as { type: string; operation?: string; data?: { name?: string } };
            if (m.type === "patient" && m.operation === "update" && m.data?.name === name) {
              const t = performance.now();
              if (publishedAt === 0) publishedAt = t;
              endToEnd.push(t - sentAt);
              fanOut.push(t - publishedAt);
              ws.off("message", on);
              resolve();
            }
          };
          ws.on("message", on);
        }),
    );
    sentAt = performance.now();
    const r = await fetch(`${server.url}/api/patient?id=${patient}`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ name, uniqueId: picked.unique_id, gender: 0, lang: "en", birthdate: "1950-01-01" }),
    });
    if (r.status !== 200) throw new Error(`patient update answered ${r.status}: ${await r.text()}`);
    await r.arrayBuffer();
    await Promise.all(arrivals);
  }
  endToEnd.sort((a, b) => a - b);
  fanOut.sort((a, b) => a - b);
  console.log(
    `${label}: live fan-out to ${SOCKETS} sockets (${EVENTS} patient updates): request-to-delivery p50 ${percentile(endToEnd, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(endToEnd, 99).toFixed(1)} ms; spread from first to last socket p50 ${percentile(fanOut, 50).toFixed(2)} ms, p99 ${percentile(fanOut, 99).toFixed(2)} ms (${load()})`,
  );
  for (const ws of sockets) ws.close();
  await server.close();
  return rows;
};

/** Whether a row is one the aim speaks of: 10,000 patients (or fewer), 8 clients. */
const aimed = (r: SearchRow) => r.patients <= 10_000 && r.clients === 8;

const main = async () => {
  console.log(`bench:server on ${STORAGES.join(" and ")} (load average ${loadAverage()})`);
  const rows: SearchRow[] = [];
  const missing: string[] = [];
  if (STORAGES.includes("pglite")) rows.push(...(await benchOn({ kind: "pglite", dataDir: undefined }, "PGlite")));
  if (STORAGES.includes("postgres")) {
    const pg = await benchPostgres();
    if (!pg) missing.push("PostgreSQL: not measured (no BENCH_DATABASE_URL and no initdb: apt-get install postgresql)");
    else
      try {
        console.log(`PostgreSQL: ${pg.origin}`);
        rows.push(...(await benchOn({ kind: "postgres", url: pg.url }, "PostgreSQL")));
      } finally {
        pg.stop();
      }
  }
  const cell = (x: number) => `${x.toFixed(1)} ms`;
  console.log("");
  console.log(
    `Patient search, ${SEARCH_SECONDS} s per row (aim, issue 18: p99 <= ${AIM_P99_MS} ms at 10,000 patients with 8 clients, on both databases):`,
  );
  console.log("database | patients | clients | p50 | p99 | requests/s | failed | load average | aim");
  for (const r of rows)
    console.log(
      [
        r.database,
        r.patients,
        r.clients,
        cell(r.p50),
        cell(r.p99),
        r.perSecond.toFixed(0),
        r.failed,
        r.load,
        aimed(r) ? `p99 <= ${AIM_P99_MS} ms: ${r.p99 <= AIM_P99_MS ? "met" : "NOT met"}` : "",
      ].join(" | "),
    );
  for (const m of missing) console.log(m);
  const judged = rows.filter(aimed);
  if (judged.length)
    console.log(
      `Aim: ${judged.every((r) => r.p99 <= AIM_P99_MS) ? "met" : "NOT met"} on ${[...new Set(judged.map((r) => r.database))].join(" and ")}` +
        (missing.length ? " (PostgreSQL not measured)" : ""),
    );
};

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
