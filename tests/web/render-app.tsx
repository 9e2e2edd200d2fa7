// Renders web pages inside a memory router and a jotai store whose core/client runs over a fake Api, for component tests.
import { render } from "@testing-library/react";
import { Provider, createStore } from "jotai";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { createMemoryRouter, RouterProvider, type RouteObject } from "react-router-dom";
import { memoryStorage } from "../../adapters/storage/index.ts";
import { systemClock } from "../../adapters/clock/index.ts";
import { SocketState } from "../../core/model/enums.ts";
import type { LiveMessage } from "../../core/model/live.ts";
import { StorageKeys, type Api, type Socket } from "../../core/ports.ts";
import { bindClient } from "../../web/state/start-client.ts";

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
  state: SocketState.Uninstantiated,
  connect() {},
  send() {},
  close() {},
  subscribe: () => () => undefined,
  onState: () => () => undefined,
});

/** A live socket the test drives: `emit` delivers a message as if the server sent it. */
export function drivenSocket() {
  const listeners = new Set<(m: LiveMessage) => void>();
  const socket: Socket & { emit: (m: LiveMessage) => void } = {
    state: SocketState.Open,
    connect() {},
    send() {},
    close() {},
    subscribe: (l) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    onState: () => () => undefined,
    emit: (m) => {
      for (const l of [...listeners]) l(m);
    },
  };
  return socket;
}

export function renderRoutes(routes: RouteObject[], path: string, api: Api, token: string | null = null, socket: Socket = idleSocket()) {
  const store = createStore();
  const storage = memoryStorage();
  if (token) storage.session.set(StorageKeys.session.accessToken, token);
  const { client } = bindClient(store, { api, socket, storage, clock: systemClock });
  void client.session.start();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  if (!i18n.locale) i18n.loadAndActivate({ locale: "en", messages: {} });
  const view = render(
    <I18nProvider i18n={i18n}>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </I18nProvider>,
  );
  return { ...view, router, store, storage, client };
}

/** A token the web can read: header.payload.signature with a base64url JSON payload. */
export function tokenFor(role: "user" | "manager" | "admin", username = role) {
  const payload = Buffer.from(JSON.stringify({ role, username, email: `${username}@clinic.example`, exp: 4_000_000_000 })).toString(
    "base64url",
  );
  return `h.${payload}.s`;
}
