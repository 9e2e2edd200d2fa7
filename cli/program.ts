import { Command } from "commander";
import { registerAnalyse } from "./commands/analyse.ts";
import { registerAudit } from "./commands/audit.ts";
import { registerBackup } from "./commands/backup.ts";
import { registerCheck } from "./commands/check.ts";
import { registerDevices } from "./commands/devices.ts";
import { registerExport } from "./commands/export.ts";
import { registerImport } from "./commands/import.ts";
import { registerPacs } from "./commands/pacs.ts";
import { registerSimulate } from "./commands/simulate.ts";
import { registerLogin } from "./commands/login.ts";
import { registerWorklist } from "./commands/worklist.ts";
import { exitCodeHelp } from "./exit-codes.ts";
import type { CliIo } from "./io.ts";

/** The `isopter` command tree, writing to `io`; commander never exits the process (cli/run.ts maps errors to codes). */
export function createProgram(io: CliIo): Command {
  const program = new Command("isopter")
    .description("Isopter from the command line: export results, check devices, run simulated headsets, analyse CSV.")
    .version("0.1.0", "-V, --version")
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
    })
    .addHelpText(
      "after",
      `\nEnvironment:\n  ISOPTER_HOME      where profiles and tokens live (default ~/.config/isopter)\n` +
        `  ISOPTER_SERVER    server URL for this run\n  ISOPTER_PROFILE   profile for this run\n  ISOPTER_PASSWORD  password for \`isopter login\`\n\n${exitCodeHelp}\n`,
    );
  registerLogin(program, io);
  registerExport(program, io);
  registerImport(program, io);
  registerPacs(program, io);
  registerAnalyse(program, io);
  registerDevices(program, io);
  registerAudit(program, io);
  registerWorklist(program, io);
  registerSimulate(program, io);
  registerBackup(program, io);
  registerCheck(program, io);
  return program;
}
