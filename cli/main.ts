// The `isopter` process: run the command, set the exit code, stay quiet when a pipe reader goes away (`| head`).
import { processIo } from "./io.ts";
import { runCli } from "./run.ts";

process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

process.exitCode = await runCli(process.argv.slice(2), processIo());
