// Browser-safe exports; Node callers import ./node-socket.ts directly (it pulls in `ws`).
export * from "./live-socket.ts";
export * from "./browser-socket.ts";
