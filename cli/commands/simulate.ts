import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join, resolve } from "node:path";
import { Option, type Command } from "commander";
import { defineCommand, nonNegativeNumberOption, positiveIntOption, sharedOptions } from "../command.ts";
import { CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { projectRoot as findProjectRoot } from "../project-root.ts";
import { checkServerUrl } from "../profiles/profile-store.ts";
import { resolveTarget } from "../session.ts";
import { logIn } from "./login.ts";
import { registerSimulateControl } from "./simulate-control.ts";

// isopter simulate: the clinic server and N virtual headsets in a child process (`simulator/start.ts`, what `npm start`
// runs). The CLI never imports the simulator (architecture rule): it starts it and talks to it over the network.

const projectRoot = findProjectRoot();
export const SIMULATOR_ENTRY = join(projectRoot, "simulator/start.ts");

interface SimulateOptions {
  headsets: number;
  speed: number;
  faults: "none" | "demo";
  port: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  demoPassword?: string;
  login?: boolean;
  duration?: number;
}

export function registerSimulate(program: Command, io: CliIo): void {
  const simulate = program
    .command("simulate")
    .description("run the clinic server with virtual headsets (start, the default), and control them while it runs")
    .addHelpText(
      "after",
      "\nWhile it runs (in another terminal, logged in as an admin or manager of the simulator):" +
        "\n  isopter simulate headsets [list]        isopter simulate headsets add 2 --speed 20" +
        "\n  isopter simulate headsets remove VR-0005" +
        "\n  isopter simulate fault VR-0001 disconnect --for 8" +
        "\n  isopter simulate profile VR-0001 advanced   isopter simulate speed --all 10",
    );
  defineCommand(simulate, "start", "start the clinic server with N virtual headsets (Ctrl-C stops both; the default)", { isDefault: true })
    .option("-n, --headsets <n>", "virtual headsets to run", (v) => (v === "0" ? 0 : positiveIntOption(v)), 4)
    .option("--speed <factor>", "simulated-time factor of the headsets (1 = real time)", nonNegativeNumberOption, 1)
    .addOption(
      new Option("--faults <set>", "random faults: none, or demo (disconnects, dropped frames, clicker loss, flat battery)")
        .choices(["none", "demo"])
        .default("none"),
    )
    .option("--port <port>", "port to listen on (0 = any free one)", (v) => (v === "0" ? 0 : positiveIntOption(v)), 4170)
    .option("--host <host>", "address to listen on (default 127.0.0.1)")
    .option("--data-dir <dir>", "where PGlite keeps the database (default ./.data in the current folder)")
    .option("--database-url <url>", "use this PostgreSQL database instead of PGlite")
    .option("--demo-password <password>", "password of the demo logins (default: generated and printed)")
    .option("--login", "log the profile in as the demo manager once the server is up")
    .option("--duration <seconds>", "stop after this many seconds", nonNegativeNumberOption)
    .addHelpText(
      "after",
      "\nThe same as `npm start` with PORT, HOST, DATA_DIR, DATABASE_URL, HEADSETS, SPEED, DEMO_PASSWORD and ISOPTER_HEADSET_FAULTS." +
        "\nWhile it runs: isopter simulate headsets|fault|profile|speed (see isopter simulate --help)." +
        "\n\nExample:\n  isopter simulate --headsets 6 --speed 20 --faults demo --login --profile sim\n  isopter devices watch --profile sim" +
        "\n  isopter simulate headsets add 2 --profile sim",
    )
    .action(async (o: SimulateOptions, cmd: Command) => {
      const shared = sharedOptions(cmd);
      if (o.speed <= 0 || o.speed > 1000) throw new CliError(ExitCode.BadArguments, "--speed must be above 0 and at most 1000");
      if (o.databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(o.databaseUrl))
        throw new CliError(ExitCode.BadArguments, "--database-url must start with postgres:// or postgresql://");
      const target = resolveTarget(shared, io);
      const env: Record<string, string> = {
        ...(io.env as Record<string, string>),
        PORT: String(o.port),
        HEADSETS: String(o.headsets),
        SPEED: String(o.speed),
        ISOPTER_HEADSET_FAULTS: o.faults === "demo" ? "demo" : "none",
        ...(o.host ? { HOST: o.host } : {}),
        // Relative to where the command runs (the child runs in the package folder, where tsx resolves).
        DATA_DIR: resolve(io.cwd, o.dataDir ?? ".data"),
        ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
        ...(o.demoPassword ? { DEMO_PASSWORD: o.demoPassword } : {}),
      };
      const child = spawn(process.execPath, ["--import", "tsx", SIMULATOR_ENTRY], {
        cwd: projectRoot,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let url: string | null = null;
      let password = o.demoPassword ?? null;
      let loginFailure: unknown = null;
      let loginStarted = false;
      const ready = (line: string) => {
        const listening = /^Isopter listening on (\S+)/.exec(line);
        if (listening) url = checkServerUrl(listening[1]!);
        const generated = /e\.g\. username (\S+), password (\S+)/.exec(line);
        if (generated && !password) password = generated[2]!;
        // Logins are printed after "listening": log in once both are known, once.
        if (o.login && !loginStarted && url && line.startsWith("Demo logins") && !password && !/\(password /.test(line))
          io.stderr.write("isopter: --login needs --demo-password here: this data directory keeps the password of its first start\n");
        if (o.login && !loginStarted && url && (line.startsWith("Demo logins") || generated) && password) {
          loginStarted = true;
          const server = url,
            pw = password;
          void logIn(target.store, target.profile, server, "manager", pw)
            .then(() => {
              io.stderr.write(`isopter: logged in to ${server} as manager (profile "${target.profile}")\n`);
              if (shared.json) io.stdout.write(JSON.stringify({ server, profile: target.profile, headsets: o.headsets }) + "\n");
            })
            .catch((e) => (loginFailure = e));
        }
      };
      const out = shared.json ? io.stderr : io.stdout; // --json keeps stdout for the one JSON line
      createInterface({ input: child.stdout }).on("line", (line) => {
        out.write(`${line}\n`);
        ready(line);
      });
      child.stderr.pipe(io.stderr as NodeJS.WritableStream, { end: false });
      const stop = () => child.kill("SIGTERM");
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      const timer = o.duration !== undefined ? setTimeout(stop, o.duration * 1000) : null;
      const code = await new Promise<number | null>((r) => child.on("close", (c) => r(c)));
      if (timer) clearTimeout(timer);
      process.removeListener("SIGINT", stop);
      process.removeListener("SIGTERM", stop);
      if (loginFailure) throw loginFailure;
      if (code !== 0 && code !== null) throw new CliError(ExitCode.Failure, `the simulator exited with code ${code}`);
      if (url === null) throw new CliError(ExitCode.Failure, "the simulator stopped before it was listening");
    });
  registerSimulateControl(simulate, io);
}
