export * from "./system-clock.ts";
export * from "./virtual-clock.ts";
