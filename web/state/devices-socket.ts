import { atom } from "jotai";
import type { Socket, Storage } from "../../core/ports.ts";

/** Makes the technician view's live socket. Null: the browser's WebSocket to /api/ws. Tests put a fake (or no socket) here. */
export const liveSocketFactoryAtom = atom<((storage: Storage) => Socket | null) | null>(null);
