import type { createStore } from "jotai";
import type { ClientPorts } from "../../core/client/index.ts";
import ClientOverlays from "../shell/ClientOverlays.tsx";
import { setClientOverlays } from "./client-atom.ts";
import { bindClient as bind, startClient as start } from "./client.ts";

// The client with what Root shows beside the pages while there is one (ClientOverlays, which reads the client through
// web/state/client.ts: registered here so that neither module imports the other). lazy-client.ts loads this module;
// component tests bind their client over a fake Api through it too.

type Store = ReturnType<typeof createStore>;

/** web/state/client.ts `bindClient`, with the overlays registered first. */
export function bindClient(store: Store, ports: ClientPorts): ReturnType<typeof bind> {
  setClientOverlays(ClientOverlays);
  return bind(store, ports);
}

/** web/state/client.ts `startClient` (the browser app's client), with the overlays registered first. */
export function startClient(store: Store): ReturnType<typeof start> {
  setClientOverlays(ClientOverlays);
  return start(store);
}
