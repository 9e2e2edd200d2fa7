export * from "./backend.ts";
export * from "./http-api.ts";
