import { atom } from "jotai";

/** "Connectivity: offline is reported only after 2 s; back online clears it at once." (accounts seed §4) */
export const offlineDelayMs = 2000;

export const offlineAtom = atom(false);

/** Follows the browser's online/offline events with the seed's debounce; returns a stop function. */
export function watchConnectivity(report: (offline: boolean) => void, win: Pick<Window, "addEventListener" | "removeEventListener" | "navigator"> = window) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const goOffline = () => { clearTimeout(timer); timer = setTimeout(() => report(true), offlineDelayMs); };
  const goOnline = () => { clearTimeout(timer); report(false); };
  win.addEventListener("offline", goOffline);
  win.addEventListener("online", goOnline);
  if (win.navigator.onLine === false) goOffline();
  return () => { clearTimeout(timer); win.removeEventListener("offline", goOffline); win.removeEventListener("online", goOnline); };
}
