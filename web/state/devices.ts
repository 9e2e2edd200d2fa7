import { useEffect, useReducer } from "react";
import { CacheKey } from "../../core/client/cache-keys.ts";
import type { ChangeTopic } from "../../core/client/events.ts";
import type { Client } from "../../core/client/client.ts";
import type { DeviceView } from "../../core/client/device-view.ts";
import { useClient } from "./client.ts";

// The technician view reads its devices, live state, lane commands and pins from core/client (one live socket for the
// whole app, its device tracker and lane commands). Components re-render when the client announces a change of a
// topic they show.

const LANE_TOPICS: readonly ChangeTopic[] = ["cache", "devices", "lanes", "marks", "socket", "commands"];

/** The client, re-rendering the caller whenever one of `topics` changes. */
export function useClientTopics(topics: readonly ChangeTopic[] = LANE_TOPICS): Client {
  const client = useClient();
  const [, bump] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const onChange = (topic: ChangeTopic) => { if (topics.includes(topic)) bump(); };
    client.events.on("change", onChange);
    return () => client.events.off("change", onChange);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, topics.join()]);
  return client;
}

export type DevicesState =
  | { readonly status: "loading" }
  | { readonly status: "error"; readonly error: unknown }
  | { readonly status: "success"; readonly views: readonly DeviceView[] };

/** The device list as the page shows it: loading until the first answer; a failed refetch keeps the lanes shown. */
export function devicesState(client: Client): DevicesState {
  const entry = client.query(CacheKey.Devices, {});
  if (entry?.data !== undefined) return { status: "success", views: client.devices() };
  if (entry?.status === "error") return { status: "error", error: entry.error };
  return { status: "loading" };
}
