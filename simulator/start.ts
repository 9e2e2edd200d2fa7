// `npm start`: the whole system in one process tree: the clinic server (HTTP API, live socket, headset socket, the
// built web app) and the virtual headsets, which `isopter simulate headsets|fault|profile|speed` control while it runs
// (simulator/control). Configuration by environment: see simulator/server/config.ts.
// With --build-web (`npm start`), the web app is built when its sources changed (scripts/build-web-if-changed.ts) in a
// child process while this one opens, migrates and seeds the database; the server listens, and the demo logins are
// printed, only once both are done, so the printed address always serves the web app (issue 18: the cold start).
import { mkdirSync } from "node:fs";
import { buildWebIfChanged, WebBuildError } from "../scripts/build-web-if-changed.ts";
import { join } from "node:path";
import { ConfigError, readConfig } from "./server/config.ts";
import { startKeyMaterial } from "./server/auth/secret-box.ts";
import { StartupError } from "./server/db/data-dir.ts";
import type { DemoLogins } from "./server/demo/seed.ts";

/** The web build running beside the start: a start that fails waits for it, so dist/web is never left half written
 * (another server of this checkout may be serving it). */
let building: Promise<unknown> | undefined;

const main = async () => {
  const config = readConfig(process.env);
  if (!config.databaseUrl)
    try {
      mkdirSync(config.dataDir, { recursive: true });
    } catch (e) {
      throw new StartupError(
        `cannot use DATA_DIR ${config.dataDir}: ${(e as NodeJS.ErrnoException).code === "EEXIST" || (e as NodeJS.ErrnoException).code === "ENOTDIR" ? "a path part is a file, not a directory" : (e as Error).message}`,
      );
    }
  // The build's child process runs beside the database's start; its line is printed when it is done. A failed build is
  // awaited (and reported) before listening, after the database is closed in good order.
  const web = process.argv.includes("--build-web") ? buildWebIfChanged() : undefined;
  building = web?.then(
    (line) => console.log(line),
    () => undefined,
  );
  // The server's modules (some 500, about 2 s to load) load while the build runs, not before it starts.
  const [
    { headsetControl },
    { startHeadsets },
    { ensureDevices, generatedPassword, seedDemo, setDemoPasswords },
    { startServer },
    { pairingCodesFor },
  ] = await Promise.all([
    import("./control/headset-control.ts"),
    import("./headset/index.ts"),
    import("./server/demo/seed.ts"),
    import("./server/server.ts"),
    import("./server/device/enrolment.ts"),
  ]);
  const password = config.demoPassword ?? generatedPassword();
  // The headsets' control: the server gets it (dev routes for `isopter simulate headsets|fault|profile|speed`), this
  // process owns the headsets; the server never imports simulator/headset.
  const control = headsetControl({ speed: config.speed });
  let demo: DemoLogins | undefined;
  const server = await startServer({
    simulator: control,
    storage: config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl }
      : { kind: "pglite", dataDir: join(config.dataDir, "pglite") },
    natsUrl: config.natsUrl,
    host: config.host,
    port: config.port,
    devRoutes: config.devRoutes,
    allowedOrigins: config.allowedOrigins,
    settings: { trustedProxies: config.trustedProxies },
    smtp: config.smtp,
    auditRepository: config.auditFhirUrl ? { url: config.auditFhirUrl, authorization: config.auditFhirAuthorization } : undefined,
    secretKey: () => startKeyMaterial(process.env.ISOPTER_SECRETS_KEY, config.dataDir),
    async beforeListen(db) {
      demo = await seedDemo(db, { password, headsets: config.headsets });
      if (!demo.created && config.demoPassword) await setDemoPasswords(db, config.demoPassword);
      await web;
    },
  });
  if (!demo) throw new Error("the demo clinic was not seeded");
  // The first clinic's headsets VR-0001 ..., then the appointment clinic's own (VR-A001, VR-A002) when headsets run.
  const serials = [...(await ensureDevices(server.db, config.headsets)), ...(config.headsets > 0 ? demo.appointments.serials : [])];
  // The headsets connect here, or to the addresses HEADSET_URLS lists (a cluster's processes: they spread over them and
  // move on when one goes away; or the proxy in front of them).
  const deviceUrl = config.headsetUrls.length > 0 ? config.headsetUrls : `${server.url.replace(/^http/, "ws")}/device`;

  // The virtual headsets enrol as real ones do: the server issues a pairing code for each (a new one every start: the
  // previous run's headsets are gone), and each exchanges it for its credential in its first hello.
  if (config.headsets > 0) {
    const codes = await pairingCodesFor(server.ctx, serials);
    const keys = new Map([...codes].map(([sn, pairingCode]) => [sn, { pairingCode }]));
    control.attach(deviceUrl, await startHeadsets({ url: deviceUrl, serials: [...keys.keys()], keys, speed: config.speed }));
  } else control.attach(deviceUrl);

  console.log(`Storage: ${config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${join(config.dataDir, "pglite")}`}`);
  if (config.databaseUrl) console.log(`Bus: ${config.natsUrl ? "NATS (NATS_URL)" : "PostgreSQL LISTEN/NOTIFY"}`);
  console.log(
    `Mail: ${config.smtp ? `SMTP via ${config.smtp.host}:${config.smtp.port} (SMTP_URL)` : "kept in the outbox (development mode: GET /api/dev/outbox)"}`,
  );
  console.log(`Isopter listening on ${server.url}`);
  if (!config.devRoutes) console.log("Development routes (/api/dev/*) are off (NODE_ENV=production or ISOPTER_DEV_ROUTES=off)");
  const logins = demo.usernames.join(", ");
  if (demo.created || config.demoPassword) console.log(`Demo logins: ${logins}; password: ${password}`);
  else console.log(`Demo logins: ${logins}; password as printed on the first start (set DEMO_PASSWORD to choose a new one)`);
  // The second demo organisation, on the appointment variant (appointments with examinations on its own headsets).
  const appointments = `Appointment variant demo (${demo.appointments.name}, headsets ${demo.appointments.serials.join(", ")}): ${demo.appointments.usernames.join(", ")}`;
  if (demo.appointments.created || config.demoPassword) console.log(`${appointments}; password: ${password}`);
  else console.log(`${appointments}; password as printed on the first start`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Drain: no new connections, requests in flight finish, sockets close with 1001 going away, the database is
    // flushed and closed; all within 10 s (the headsets beside it stop first; a hung request is cut after 8 s).
    setTimeout(() => process.exit(1), 10_000).unref();
    await control.stop().catch(() => undefined);
    await server.drain(8_000);
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
};

main().catch(async (e: unknown) => {
  // Configuration and start-up failures are one line naming what and why; anything else is a bug, shown whole.
  console.error(e instanceof ConfigError || e instanceof StartupError || e instanceof WebBuildError ? `Isopter: ${e.message}` : e);
  await building;
  process.exit(1);
});
