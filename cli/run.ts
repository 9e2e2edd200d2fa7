import { CommanderError } from "commander";
import { describeFailure, ExitCode } from "./exit-codes.ts";
import type { CliIo } from "./io.ts";
import { createProgram } from "./program.ts";

/** Runs one `isopter` invocation (argv without node and script) and resolves with its exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return ExitCode.Ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exitCode 0; every parse error (already printed by commander) is a bad argument.
      return error.exitCode === 0 ? ExitCode.Ok : ExitCode.BadArguments;
    }
    const { code, message } = describeFailure(error);
    io.stderr.write(`isopter: ${message}\n`);
    return code;
  }
}
