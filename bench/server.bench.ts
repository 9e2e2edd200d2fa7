// `npm run bench:server`: patient search throughput over 10,000 patients, and live-event fan-out latency to 50
// browser sockets. Prints figures; asserts nothing (the machine is shared). PGlite in memory unless
// BENCH_DATABASE_URL names a PostgreSQL database to use (it must be empty or an Isopter database).
import WebSocket from "ws";
import { startServer } from "../simulator/server/server.ts";
import { seedDemo } from "../simulator/server/demo/seed.ts";
import { newId } from "../simulator/server/store/ids.ts";

const PATIENTS = 10_000;
const SOCKETS = 50;
const SEARCH_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = 8;
const EVENTS = 200;
const password = "Bench-Pass-1";

const first = ["Anna", "Jonas", "Maria", "Luca", "Sophie", "Pierre", "Emma", "Daan", "Olivia", "James", "Lucia", "Carlos", "Ana", "Joao", "Li", "Zhang", "Greta", "Paul", "Claire", "Marco"];
const last = ["Schmidt", "Weber", "Rossi", "Bianchi", "Martin", "Dubois", "de Vries", "Jansen", "Brown", "Wilson", "Hernandez", "Garcia", "Souza", "Oliveira", "Wei", "Min", "Fischer", "Becker", "Lambert", "Ferrari", "Taylor", "Moore", "Bakker", "Lefevre", "Conti"];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const main = async () => {
  const url = process.env.BENCH_DATABASE_URL;
  const server = await startServer({ storage: url ? { kind: "postgres", url } : { kind: "pglite", dataDir: undefined }, port: 0, webRoot: "/nonexistent" });
  await seedDemo(server.db, { password, headsets: 4, results: "fixtures" });
  const org = (await server.db.query<{ id: string }>("select organisation_id as id from users where username = 'manager'"))[0]!.id;
  const existing = (await server.db.query<{ n: number }>("select count(*)::int as n from patients"))[0]!.n;
  const t0 = performance.now();
  const now = new Date().toISOString();
  for (let start = existing; start < PATIENTS; start += 500) {
    await server.db.transaction(async (tx) => {
      const values: unknown[] = [];
      const rows: string[] = [];
      for (let i = start; i < Math.min(PATIENTS, start + 500); i++) {
        const k = values.length;
        rows.push(`($${k + 1}, $${k + 2}, $${k + 3}, $${k + 4}, $${k + 5}, lower($${k + 3} || ' B-${i}'), $${k + 6}, $${k + 6})`);
        const birth = `${1930 + (i % 80)}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
        values.push(newId(), org, `${first[i % first.length]} ${last[(i * 7) % last.length]} ${i}`, birth, JSON.stringify({ uniqueId: `B-${i}`, gender: i % 3, lang: "en" }), now);
      }
      await tx.query(`insert into patients (id, organisation_id, name, birthdate, body, search, created_at, updated_at) values ${rows.join(", ")}`, values);
    });
  }
  const total = (await server.db.query<{ n: number }>("select count(*)::int as n from patients where organisation_id = $1", [org]))[0]!.n;
  console.log(`storage: ${server.db.kind}; ${total} patients (inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

  const login = async () => {
    const r = await fetch(`${server.url}/api/login`, { method: "POST", body: JSON.stringify({ username: "manager", password }) });
    return ((await r.json()) as { data: { accessToken: string } }).data.accessToken;
  };
  const token = await login();
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };

  // 1. patient search: CONCURRENCY clients in a loop, name fragments and a birthdate filter now and then.
  const terms = [...first.map((f) => f.slice(0, 3).toLowerCase()), ...last.map((l) => l.slice(0, 4).toLowerCase()), "12", "999"];
  let done = 0;
  let failed = 0;
  const latencies: number[] = [];
  const deadline = performance.now() + SEARCH_SECONDS * 1000;
  const client = async (c: number) => {
    let i = c;
    while (performance.now() < deadline) {
      i++;
      const body = { filter: { name: terms[i % terms.length]!, birthdate: i % 10 === 0 ? "1950-03-03" : null }, page: i % 3, quantity: 20 };
      const t = performance.now();
      const r = await fetch(`${server.url}/api/patient/search`, { method: "POST", headers, body: JSON.stringify(body) });
      await r.arrayBuffer();
      latencies.push(performance.now() - t);
      if (r.status === 200) done++;
      else failed++;
    }
  };
  const s0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, c) => client(c)));
  const elapsed = (performance.now() - s0) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `patient search over ${total} patients: ${(done / elapsed).toFixed(0)} requests/s (${CONCURRENCY} concurrent clients, ${SEARCH_SECONDS} s, ` +
      `latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ${failed} failed)`,
  );

  // 2. fan-out: 50 logged-in live sockets; a patient update by HTTP; time from the request until each socket has the event.
  const sockets = await Promise.all(
    Array.from({ length: SOCKETS }, async () => {
      const ws = new WebSocket(`${server.url.replace("http", "ws")}/api/ws`);
      await new Promise((r) => ws.once("open", r));
      ws.send(JSON.stringify({ type: "logged_in", accessToken: token, message: "bench" }));
      ws.send(JSON.stringify({ type: "ping" }));
      await new Promise<void>((r) => ws.on("message", function onPong(d) { if (JSON.parse(d.toString()).type === "pong") { ws.off("message", onPong); r(); } }));
      return ws;
    }),
  );
  const picked = (
    await server.db.query<{ id: string; unique_id: string }>("select id, body->>'uniqueId' as unique_id from patients where organisation_id = $1 order by id limit 1", [org])
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
    `live fan-out to ${SOCKETS} sockets (${EVENTS} patient updates): request-to-delivery p50 ${percentile(endToEnd, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(endToEnd, 99).toFixed(1)} ms; spread from first to last socket p50 ${percentile(fanOut, 50).toFixed(2)} ms, p99 ${percentile(fanOut, 99).toFixed(2)} ms`,
  );
  for (const ws of sockets) ws.close();
  await server.close();
};

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
