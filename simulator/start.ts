// `npm start`: the whole system in one process tree: the clinic server (HTTP API, live socket, headset socket, the
// built web app) and the virtual headsets. Configuration by environment: see simulator/server/config.ts.
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { ConfigError, readConfig } from "./server/config.ts";
import { ensureDevices, generatedPassword, seedDemo, setDemoPasswords } from "./server/demo/seed.ts";
import { startServer } from "./server/server.ts";

const main = async () => {
  const config = readConfig(process.env);
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  const password = config.demoPassword ?? generatedPassword();
  const server = await startServer({
    storage: config.databaseUrl ? { kind: "postgres", url: config.databaseUrl } : { kind: "pglite", dataDir: join(config.dataDir, "pglite") },
    host: config.host,
    port: config.port,
  });
  const demo = await seedDemo(server.db, { password, headsets: config.headsets });
  if (!demo.created && config.demoPassword) await setDemoPasswords(server.db, config.demoPassword);
  const serials = await ensureDevices(server.db, config.headsets);

  let stopHeadsets: (() => Promise<void>) | undefined;
  const headsetModule = fileURLToPath(new URL("./headset/index.ts", import.meta.url));
  if (config.headsets > 0 && existsSync(headsetModule)) {
    try {
      const mod = (await import(headsetModule)) as { startHeadsets?: (o: { url: string; serials: string[]; speed: number }) => Promise<{ stop(): Promise<void> }> };
      if (mod.startHeadsets) {
        const fleet = await mod.startHeadsets({ url: server.url.replace(/^http/, "ws") + "/device", serials, speed: config.speed });
        stopHeadsets = () => fleet.stop();
      } else console.log("Virtual headsets: simulator/headset has no startHeadsets export yet; none started.");
    } catch (e) {
      console.log(`Virtual headsets could not start: ${(e as Error).message}`);
    }
  } else if (config.headsets > 0) {
    console.log(`Virtual headsets: none available yet (simulator/headset is not built); ${serials.length} devices are registered and wait for a headset.`);
  }

  console.log(`Storage: ${config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${join(config.dataDir, "pglite")}`}`);
  console.log(`Isopter listening on ${server.url}`);
  const logins = demo.usernames.join(", ");
  if (demo.created || config.demoPassword) console.log(`Demo logins: ${logins}; password: ${password}`);
  else console.log(`Demo logins: ${logins}; password as printed on the first start (set DEMO_PASSWORD to choose a new one)`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await stopHeadsets?.().catch(() => undefined);
    await server.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
};

main().catch((e: unknown) => {
  console.error(e instanceof ConfigError ? `Isopter: ${e.message}` : e);
  process.exit(1);
});
