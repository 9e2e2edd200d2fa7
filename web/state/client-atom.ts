import { atom } from "jotai";
import type { ComponentType } from "react";
import type { Client } from "../../core/client/client.ts";

// What the entry and the client's module both hold of the client, imported by each and importing neither: the atom
// that carries it to the components, and what Root shows beside the pages while there is one.

/** The store's client (core/client over the adapters), or null until it is loaded and started. */
export const clientAtom = atom<Client | null>(null);

let overlays: ComponentType | null = null;
/** Set by web/state/start-client.ts as it binds a client: what Root shows beside the pages while there is one (its
 * notices and the dialogs that end a session, web/shell/ClientOverlays.tsx), known before the client is, so no notice
 * is missed. */
export function setClientOverlays(component: ComponentType): void {
  overlays = component;
}
export const clientOverlays = (): ComponentType | null => overlays;
