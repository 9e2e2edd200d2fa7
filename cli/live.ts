import { systemClock } from "../adapters/clock/system-clock.ts";
import { socketUrlFor } from "../adapters/http/backend.ts";
import { createLiveSocket, type LiveSocket } from "../adapters/socket/live-socket.ts";
import { nodeWebSocket } from "../adapters/socket/node-socket.ts";
import { memoryStorage } from "../adapters/storage/memory-storage.ts";
import { SocketState } from "../core/model/enums.ts";
import { StorageKeys, type Storage } from "../core/ports.ts";
import { CliError, ExitCode } from "./exit-codes.ts";
import { apiBaseOf, type Session } from "./session.ts";

// The live socket of a CLI session (ws://host/api/ws): the adapters' LiveSocket with the profile's token, the
// system clock and the `ws` package. Its first frames are the seeds' logged-in event and a ping.

export function sessionStorage(session: Session): Storage {
  const storage = memoryStorage();
  storage.session.set(StorageKeys.session.accessToken, session.token);
  return storage;
}

export function openLiveSocket(session: Session, options: { reconnect?: boolean } = {}): LiveSocket {
  return createLiveSocket({
    url: socketUrlFor(apiBaseOf(session.server)),
    storage: sessionStorage(session),
    clock: systemClock,
    create: nodeWebSocket,
    ...(options.reconnect === false ? { reconnectAttempts: 0 } : {}),
  });
}

/** Resolves once the socket is open; exit 4 when it closes first or takes longer than `timeoutMs`. */
export function whenOpen(socket: LiveSocket, timeoutMs = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.state === SocketState.Open) return resolve();
    const timer = setTimeout(
      () => finish(new CliError(ExitCode.Unreachable, `live socket did not open within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const off = socket.onState((s) => {
      if (s === SocketState.Open) finish();
      else if (s === SocketState.Closed)
        finish(new CliError(ExitCode.Unreachable, `live socket closed before opening (code ${socket.lastCloseCode ?? "none"})`));
    });
    function finish(error?: CliError) {
      clearTimeout(timer);
      off();
      if (error) reject(error);
      else resolve();
    }
    socket.connect();
  });
}

/** Token problems the server reports on the live socket, as the CLI's exit 3. */
export function sessionEnded(type: string): CliError | null {
  if (type === "token_expired" || type === "token_verification_error")
    return new CliError(ExitCode.NotLoggedIn, `live socket: ${type.replace(/_/g, " ")}; run \`isopter login\``);
  if (type === "another_session_opened")
    return new CliError(ExitCode.NotLoggedIn, "live socket: the same user logged in from another client");
  return null;
}
