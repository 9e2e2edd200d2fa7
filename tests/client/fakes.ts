import { ApiError } from "../../core/model/contract/errors.ts";
import { SocketState } from "../../core/model/enums.ts";
import type { LiveMessage } from "../../core/model/live.ts";
import type { Api, Socket } from "../../core/ports.ts";

// In-memory stand-ins for the Api and Socket ports, recording what the client sends.

type Handler = (input: any) => unknown;

export interface FakeApi extends Api {
  readonly calls: Array<{ endpoint: string; input: any }>;
  on(endpoint: string, handler: Handler): void;
}

export function fakeApi(handlers: Record<string, Handler> = {}): FakeApi {
  const table = new Map(Object.entries(handlers));
  const calls: Array<{ endpoint: string; input: any }> = [];
  return {
    calls,
    on: (endpoint, handler) => void table.set(endpoint, handler),
    async call(endpoint, input) {
      calls.push({ endpoint, input });
      const handler = table.get(endpoint);
      if (!handler) throw new ApiError({ status: 404, responseType: "not_found", message: `no fake for ${endpoint}` });
      return (await handler(input)) as never;
    },
  };
}

export const fail =
  (status: number, responseType: string, message = responseType) =>
  () => {
    throw new ApiError({ status, responseType, message });
  };

export interface FakeSocket extends Socket {
  readonly sent: LiveMessage[];
  receive(message: LiveMessage): void;
  /** The server dropped the connection. */
  drop(): void;
  reopen(): void;
}

export function fakeSocket(): FakeSocket {
  let state: SocketState = SocketState.Uninstantiated;
  const listeners = new Set<(m: LiveMessage) => void>();
  const stateListeners = new Set<(s: SocketState) => void>();
  const set = (s: SocketState) => {
    state = s;
    stateListeners.forEach((l) => l(s));
  };
  const sent: LiveMessage[] = [];
  return {
    sent,
    get state() {
      return state;
    },
    connect: () => set(SocketState.Open),
    send: (m) => void sent.push(m),
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
    onState: (l) => (stateListeners.add(l), () => void stateListeners.delete(l)),
    close: () => {
      if (state === SocketState.Open) set(SocketState.Closing);
      set(SocketState.Closed);
    },
    receive: (m) => listeners.forEach((l) => l(m)),
    drop: () => set(SocketState.Closed),
    reopen: () => set(SocketState.Open),
  };
}

/** Let pending promise callbacks run. */
export const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
};
