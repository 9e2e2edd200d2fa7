import { simulatorControl } from "../../adapters/http/simulator-control.ts";
import { ApiError } from "../../core/model/contract/errors.ts";
import type { SharedOptions } from "../command.ts";
import { CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { callerFor, openSession } from "../session.ts";

// The running simulator's control calls (adapters/http/simulator-control.ts) with the profile's token. A server that
// runs no simulated headsets (or a backend that has no such calls) is exit 5 with what to do.

export type ControlCall = ReturnType<typeof callerFor<typeof simulatorControl>>;

export function controlCaller(shared: SharedOptions, io: CliIo): { call: ControlCall; server: string } {
  const session = openSession(shared, io);
  const call = callerFor(session, simulatorControl);
  const guarded: ControlCall = async (name, input) => {
    try {
      return await call(name, input);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && (e.field === "simulator" || e.field === "path" || e.field === "method"))
        throw new CliError(
          ExitCode.NoSimulator,
          `${session.server} runs no simulated headsets (${e.message}); start one with \`isopter simulate\` or \`npm start\``,
        );
      if (e instanceof ApiError && e.status === 403)
        throw new CliError(ExitCode.Failure, `only admins and managers may control the simulator (${e.message})`);
      throw e;
    }
  };
  return { call: guarded, server: session.server };
}
