import { CacheKey } from "../../core/client/cache-keys.ts";
import type { Client } from "../../core/client/client.ts";
import type { DeviceView } from "../../core/client/device-view.ts";

// The technician view reads its devices, live state, lane commands and pins from core/client (one live socket for the
// whole app, its device tracker and lane commands) through `useClientState`.

export type DevicesState =
  | { readonly status: "loading" }
  | { readonly status: "error"; readonly error: unknown }
  | { readonly status: "success"; readonly views: readonly DeviceView[] };

/** The device list as the page shows it: loading until the first answer; a failed refetch keeps the lanes shown. */
export function devicesState(client: Client): DevicesState {
  const entry = client.cache.get(CacheKey.Devices, {});
  if (entry?.data !== undefined) return { status: "success", views: client.devices.list() };
  if (entry?.status === "error") return { status: "error", error: entry.error };
  return { status: "loading" };
}
