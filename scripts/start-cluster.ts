// `npm run start:cluster`: several Isopter processes on one PostgreSQL for local trials (README "Several processes").
// Each process is what `npm start` runs (simulator/start.ts) with DATABASE_URL and its own PORT; nginx, when installed,
// runs in front with deploy/nginx/isopter.conf on PORT (default 4170) and a readiness watch (deploy/ready-watch.ts).
// The last process runs the virtual headsets (HEADSETS, default 4), spread over every process's /device (HEADSET_URLS):
// kill another process and its headsets reconnect to the next one. Ctrl-C drains them all.
// With NATS=1 the processes talk over a nats-server of their own (Debian's, on a free port: scripts/cluster/nats.ts)
// instead of LISTEN/NOTIFY; a NATS_URL in the environment reaches every process as it is.
// Environment: DATABASE_URL (required), PROCESSES (default 3), PORT (default 4170), NATS, HEADSETS, SPEED, DEMO_PASSWORD, ...
import { type LocalNats, startNats } from "./cluster/nats.ts";
import { type LocalNginx, nginxBinary, startNginx } from "./cluster/nginx.ts";
import { type ClusterProcess, consecutivePorts, startProcess, startProcesses } from "./cluster/processes.ts";
import { isReady } from "../deploy/ready-watch.ts";

const fail = (message: string): never => {
  console.error(`start:cluster: ${message}`);
  process.exit(2);
};

const main = async () => {
  const databaseUrl = process.env.DATABASE_URL?.trim();
  if (!databaseUrl)
    fail("set DATABASE_URL to a PostgreSQL database (postgres://user:password@127.0.0.1:5432/isopter); see README 'Several processes'");
  const count = Number(process.env.PROCESSES ?? 3);
  if (!Number.isInteger(count) || count < 1 || count > 32)
    fail(`PROCESSES must be a whole number from 1 to 32, got '${process.env.PROCESSES}'`);
  const base = Number(process.env.PORT ?? 4170);
  if (!Number.isInteger(base) || base < 1 || base > 65535 - count) fail(`PORT must be a port number, got '${process.env.PORT}'`);
  const nginx = nginxBinary();
  // nginx on PORT and the processes on the next free ports; without nginx the processes from PORT on.
  const [front, ...ports] = await consecutivePorts(count + (nginx ? 1 : 0), base);
  const processPorts = nginx ? ports : [front!, ...ports];
  const headsets = process.env.HEADSETS ?? "4";
  const deviceUrls = processPorts.map((p) => `ws://127.0.0.1:${p}/device`).join(",");

  let procs: ClusterProcess[] = [];
  let proxy: LocalNginx | undefined;
  let nats: LocalNats | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(procs.map((p) => p.stop("SIGTERM")));
    await proxy?.stop();
    await nats?.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));

  const onLine = (n: number, line: string) => console.log(`[${n}] ${line}`);
  try {
    // The headsets' process starts last, once every address they spread over listens.
    // nginx on this machine forwards each caller's address.
    if (process.env.NATS === "1") nats = await startNats();
    const behind: Record<string, string> = {
      ...(nginx ? { ISOPTER_TRUSTED_PROXIES: "127.0.0.1" } : {}),
      ...(nats ? { NATS_URL: nats.url } : {}),
    };
    procs = await startProcesses({ databaseUrl: databaseUrl!, ports: processPorts.slice(0, -1), envOf: () => behind, onLine });
    procs.push(
      await startProcess({
        databaseUrl: databaseUrl!,
        port: processPorts.at(-1)!,
        number: count,
        env: { ...behind, HEADSETS: headsets, HEADSET_URLS: deviceUrls },
        onLine: (line) => onLine(count, line),
      }),
    );
    if (nginx) proxy = await startNginx({ port: front!, ports: processPorts, binary: nginx });
  } catch (e) {
    await Promise.all(procs.map((p) => p.stop("SIGKILL")));
    await nats?.stop();
    throw e;
  }
  for (const p of procs)
    void p.exited.then(
      (code) => stopping || console.log(`start:cluster: process ${p.number} (${p.url}) ended (${code}); the others carry on`),
    );
  if (proxy) {
    // Active readiness for nginx: a process whose /api/ready fails is marked down until it answers again.
    let last = processPorts.map(() => true);
    setInterval(async () => {
      const ready = await Promise.all(processPorts.map((p) => isReady(p)));
      if (ready.every((r, i) => r === last[i])) return;
      last = ready;
      console.log(`start:cluster: ready ${processPorts.map((p, i) => `${p} ${ready[i] ? "yes" : "no"}`).join(", ")}; nginx reloaded`);
      await proxy?.setUpstream(processPorts, ready).catch((e: Error) => console.error(e.message));
    }, 2_000).unref();
  }
  console.log("");
  console.log(`Isopter cluster: ${procs.length} processes on one PostgreSQL: ${procs.map((p) => p.url).join(", ")}`);
  if (nats) console.log(`Bus: NATS, nats-server on ${nats.url}`);
  if (proxy) console.log(`nginx (deploy/nginx/isopter.conf) in front: open ${proxy.url}`);
  else console.log("nginx is not installed (apt-get install nginx): open any process's address; each serves the whole app");
  console.log(`${headsets} virtual headsets run in process ${count}, spread over every process's /device. Ctrl-C stops the cluster.`);
};

main().catch((e: unknown) => {
  console.error(`start:cluster: ${(e as Error).message}`);
  process.exit(1);
});
