import { atom } from "jotai";

/** Mirrors core/client's connectivity: true once the browser has been offline for 2 s (accounts seed §4). */
export const offlineAtom = atom(false);
