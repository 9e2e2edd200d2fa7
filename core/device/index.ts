export * from "./battery.ts";
export * from "./connection.ts";
export * from "./protocol.ts";
export * from "./result.ts";
export * from "./status.ts";
export * from "./enrolment.ts";
