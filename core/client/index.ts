// core/client: the headless client the web app (jotai atoms) and the CLI sit on. Ports in, state and events out.
export * from "./client.ts";
export * from "./cache-keys.ts";
export * from "./cache-snapshot.ts";
export * from "./list-ops.ts";
export * from "./live-reducer.ts";
export * from "./query-cache.ts";
export * from "./device-tracker.ts";
export * from "./device-view.ts";
export * from "./device-commands.ts";
export * from "./lane-commands.ts";
export * from "./session.ts";
export * from "./session-expiry.ts";
export * from "./connectivity.ts";
export * from "./local-marks.ts";
export * from "./socket-state.ts";
export * from "./events.ts";
