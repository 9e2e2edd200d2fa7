// The clients of bench:server's patient search, in a process of their own (as browsers are): the server's event loop
// is timed alone, not shared with the clients' HTTP work. They use node:http with kept-alive connections, which
// costs a fraction of fetch's CPU: on this 2-core machine the clients, the server and PostgreSQL share the cores,
// while a clinic's browsers run elsewhere. Run by server.bench.ts with a JSON job as the argument;
// prints {latencies, done, failed, elapsed} as one JSON line (elapsed: seconds from the first request to the last answer).
import { Agent, request } from "node:http";
import { Schema } from "effect";

const Job = Schema.Struct({
  url: Schema.String,
  token: Schema.String,
  clients: Schema.Int,
  seconds: Schema.Number,
  terms: Schema.Array(Schema.String),
});

const job = Schema.decodeUnknownSync(Schema.fromJsonString(Job))(process.argv[2]);
const headers = { authorization: `Bearer ${job.token}`, "content-type": "application/json" };
const agent = new Agent({ keepAlive: true, maxSockets: job.clients });
const target = new URL("/api/patient/search", job.url);

/** One POST; resolves with the status once the whole answer has arrived. */
const post = (body: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(target, { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
      res.on("data", () => undefined);
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
const latencies: number[] = [];
let done = 0;
let failed = 0;
const started = performance.now();
const deadline = started + job.seconds * 1000;

/** One client in a loop typing name fragments, unique-id fragments and now and then a birthdate filter; pages 1 to 3 of 20. */
const client = async (c: number) => {
  let i = c * 7;
  while (performance.now() < deadline) {
    i++;
    const body = {
      filter: { name: job.terms[i % job.terms.length]!, birthdate: i % 10 === 0 ? "1950-03-03" : null },
      page: i % 3,
      quantity: 20,
    };
    const t = performance.now();
    const status = await post(JSON.stringify(body)).catch(() => 0);
    latencies.push(performance.now() - t);
    if (status === 200) done++;
    else failed++;
  }
};

await Promise.all(Array.from({ length: job.clients }, (_, c) => client(c)));
agent.destroy();
console.log(JSON.stringify({ latencies, done, failed, elapsed: (performance.now() - started) / 1000 }));
