import { ApiError } from "../core/model/contract/errors.ts";

// The documented exit codes of every `isopter` command (printed in the `isopter --help` epilogue).
export const ExitCode = {
  Ok: 0,
  Failure: 1,
  BadArguments: 2,
  NotLoggedIn: 3,
  Unreachable: 4,
  NoSimulator: 5,
  AuditBroken: 6,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export const exitCodeHelp = [
  "Exit codes:",
  "  0  success",
  "  1  failure (the server refused, a file could not be read or written, bad data)",
  "  2  bad arguments (unknown option, missing or malformed value)",
  "  3  not logged in, or the session expired / was refused (run `isopter login`)",
  "  4  server unreachable (network error, nothing listening at the URL)",
  "  5  no simulated headsets there (`isopter simulate headsets|fault|profile|speed` need a server started by",
  "     `npm start` or `isopter simulate`)",
  "  6  the audit trail's chain is broken (`isopter audit verify` names the first entry changed, removed or inserted)",
].join("\n");

/** A failure the CLI reports as one line on stderr and an exit code. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
  }
}

export const badArguments = (message: string) => new CliError(ExitCode.BadArguments, message);

const authErrorTypes = ["unauthorized", "token_expired", "token_verification_error", "invalid_credentials"] as const;

/** Exit code and message for anything a command threw. */
export function describeFailure(error: unknown): { code: ExitCode; message: string } {
  if (error instanceof CliError) return { code: error.exitCode, message: error.message };
  if (error instanceof ApiError) {
    if (error.status === 0 && error.responseType === undefined)
      return { code: ExitCode.Unreachable, message: `server unreachable: ${error.message}` };
    if (error.status === 401 || error.isType(...authErrorTypes))
      return { code: ExitCode.NotLoggedIn, message: `not logged in or session expired (${error.message}); run \`isopter login\`` };
    const field = error.field ? ` (field ${error.field})` : "";
    return {
      code: ExitCode.Failure,
      message: `server answered ${error.status}${error.responseType ? ` ${error.responseType}` : ""}: ${error.message}${field}`,
    };
  }
  if (error instanceof Error) return { code: ExitCode.Failure, message: error.message };
  return { code: ExitCode.Failure, message: String(error) };
}
