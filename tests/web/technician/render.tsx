// Renders /technician over a fake Api and a fake live socket.
import { render } from "@testing-library/react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { Provider, createStore } from "jotai";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { memoryStorage } from "../../../adapters/storage/index.ts";
import type { LiveMessage } from "../../../core/model/live.ts";
import { SocketState } from "../../../core/model/enums.ts";
import type { Api, Socket } from "../../../core/ports.ts";
import { servicesAtom } from "../../../web/state/client.ts";
import { liveSocketFactoryAtom } from "../../../web/state/devices-socket.ts";
import { Notifications } from "../../../web/ui/Notifications.tsx";
import TechnicianPage from "../../../web/pages/technician/TechnicianPage.tsx";

export interface FakeSocket extends Socket {
  emit(message: LiveMessage): void;
  setState(state: SocketState): void;
}

export function fakeSocket(): FakeSocket {
  const listeners = new Set<(m: LiveMessage) => void>();
  const stateListeners = new Set<(s: SocketState) => void>();
  let state: SocketState = SocketState.Uninstantiated;
  const socket: FakeSocket = {
    get state() { return state; },
    connect() { socket.setState(SocketState.Open); },
    send() {},
    subscribe(l) { listeners.add(l); return () => void listeners.delete(l); },
    onState(l) { stateListeners.add(l); return () => void stateListeners.delete(l); },
    close() { socket.setState(SocketState.Closed); },
    emit(m) { for (const l of [...listeners]) l(m); },
    setState(s) { state = s; for (const l of [...stateListeners]) l(s); },
  };
  return socket;
}

export function renderTechnician(api: Api, options: { path?: string; pins?: string[]; socket?: FakeSocket } = {}) {
  const store = createStore();
  const storage = memoryStorage();
  if (options.pins) storage.local.set("pinnedSwimlanes", JSON.stringify(options.pins));
  store.set(servicesAtom, { api, storage });
  const socket = options.socket ?? fakeSocket();
  store.set(liveSocketFactoryAtom, () => () => socket);
  const router = createMemoryRouter(
    [
      { path: "/technician", element: <><TechnicianPage /><Notifications /></> },
      { path: "/patient/:patientId/perimetry/:perimetryId", element: <p>result page</p> },
    ],
    { initialEntries: [options.path ?? "/technician"] },
  );
  const view = render(<I18nProvider i18n={i18n}><Provider store={store}><RouterProvider router={router} /></Provider></I18nProvider>);
  return { ...view, store, storage, router, socket };
}
