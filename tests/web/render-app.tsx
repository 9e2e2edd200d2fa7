// Renders web pages inside a memory router and a jotai store whose core/client runs over a fake Api, for component tests.
import { render } from "@testing-library/react";
import { Provider, createStore } from "jotai";
import { createMemoryRouter, RouterProvider, type RouteObject } from "react-router-dom";
import { memoryStorage } from "../../adapters/storage/index.ts";
import { systemClock } from "../../adapters/clock/index.ts";
import { SocketState } from "../../core/model/enums.ts";
import { StorageKeys, type Api, type Socket } from "../../core/ports.ts";
import { bindClient } from "../../web/state/client.ts";

export type Handler = (input: any) => unknown;

/** An Api answering from a table of handlers by call name; unknown calls reject. Records every call. */
export function fakeApi(handlers: Record<string, Handler>) {
  const calls: Array<{ endpoint: string; input: any }> = [];
  const api: Api = {
    async call(endpoint, input) {
      calls.push({ endpoint: endpoint as string, input });
      const handler = handlers[endpoint as string];
      if (!handler) throw new Error(`unexpected call ${String(endpoint)}`);
      return (await handler(input)) as never;
    },
  };
  return { api, calls };
}

/** A live socket that never connects anywhere. */
export const idleSocket = (): Socket => ({
  state: SocketState.Uninstantiated, connect() {}, send() {}, close() {},
  subscribe: () => () => undefined, onState: () => () => undefined,
});

export function renderRoutes(routes: RouteObject[], path: string, api: Api, token: string | null = null) {
  const store = createStore();
  const storage = memoryStorage();
  if (token) storage.session.set(StorageKeys.session.accessToken, token);
  const { client } = bindClient(store, { api, socket: idleSocket(), storage, clock: systemClock });
  void client.start();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<Provider store={store}><RouterProvider router={router} /></Provider>);
  return { ...view, router, store, storage, client };
}

/** A token the web can read: header.payload.signature with a base64url JSON payload. */
export function tokenFor(role: "user" | "manager" | "admin", username = role) {
  const payload = Buffer.from(JSON.stringify({ role, username, email: `${username}@clinic.example`, exp: 4_000_000_000 })).toString("base64url");
  return `h.${payload}.s`;
}
