// Renders /technician inside the app's Root (notices, session dialogs) over core/client with a fake Api and a fake
// live socket the test drives.
import { render } from "@testing-library/react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { Provider, createStore } from "jotai";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { memoryStorage } from "../../../adapters/storage/index.ts";
import { systemClock } from "../../../adapters/clock/index.ts";
import type { LiveMessage } from "../../../core/model/live.ts";
import { SocketState } from "../../../core/model/enums.ts";
import { StorageKeys, type Api, type Socket } from "../../../core/ports.ts";
import { bindClient } from "../../../web/state/start-client.ts";
import { Root } from "../../../web/shell/Root.tsx";
import TechnicianPage from "../../../web/pages/technician/TechnicianPage.tsx";
import { tokenFor } from "../render-app.tsx";
import { flushFramesNow } from "../../../web/state/frame-pace.ts";

export interface FakeSocket extends Socket {
  emit(message: LiveMessage): void;
  /** Messages that arrive within one animation frame. */
  emitInOneFrame(messages: readonly LiveMessage[]): void;
  setState(state: SocketState): void;
}

export function fakeSocket(): FakeSocket {
  const listeners = new Set<(m: LiveMessage) => void>();
  const stateListeners = new Set<(s: SocketState) => void>();
  let state: SocketState = SocketState.Uninstantiated;
  const socket: FakeSocket = {
    get state() {
      return state;
    },
    connect() {
      socket.setState(SocketState.Open);
    },
    send() {},
    subscribe(l) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    onState(l) {
      stateListeners.add(l);
      return () => void stateListeners.delete(l);
    },
    close() {
      socket.setState(SocketState.Closed);
    },
    // The technician view applies live events once per animation frame (frame-snapshot.ts): the frame comes at once here.
    emit(m) {
      socket.emitInOneFrame([m]);
    },
    emitInOneFrame(messages) {
      for (const m of messages) for (const l of [...listeners]) l(m);
      flushFramesNow();
    },
    setState(s) {
      state = s;
      for (const l of [...stateListeners]) l(s);
    },
  };
  return socket;
}

export function renderTechnician(api: Api, options: { path?: string; pins?: string[]; socket?: FakeSocket; appointments?: boolean } = {}) {
  const store = createStore();
  const storage = memoryStorage();
  storage.session.set(StorageKeys.session.accessToken, tokenFor("user"));
  if (options.appointments) storage.local.set(StorageKeys.local.schedulingV2, "true");
  if (options.pins) storage.local.set(StorageKeys.local.pinnedSwimlanes, JSON.stringify(options.pins));
  const socket = options.socket ?? fakeSocket();
  const withToken: Api = {
    call: (e, i) =>
      e === "checkToken" ? Promise.resolve({ role: "user", username: "user", email: "u@x", exp: 4e9 } as never) : api.call(e, i),
  };
  const { client } = bindClient(store, { api: withToken, socket, storage, clock: systemClock });
  void client.session.start();
  const router = createMemoryRouter(
    [
      {
        element: <Root />,
        children: [
          { path: "/technician", element: <TechnicianPage /> },
          { path: "/patient/:patientId/perimetry/:perimetryId", element: <p>result page</p> },
          { path: "/login", element: <p>login page</p> },
          { path: "/home", element: <p>home page</p> },
          { path: "/bin/*", element: <p>bin page</p> },
        ],
      },
    ],
    { initialEntries: [options.path ?? "/technician"] },
  );
  const view = render(
    <I18nProvider i18n={i18n}>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </I18nProvider>,
  );
  return { ...view, store, storage, router, socket, client };
}
