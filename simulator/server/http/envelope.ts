import type { ServerResponse } from "node:http";
import { errorStatus, type ErrorType } from "../../../core/model/contract/index.ts";
import { isDatabaseUnavailable, isDataDamaged } from "../db/faults.ts";
import { log } from "../log.ts";

// Every answer is JSON {data, responseType?, accessToken?}: 200 with data on success; on failure the error type's
// status with data {message, field?} and responseType naming the error.

export interface Envelope {
  readonly data: unknown;
  readonly responseType?: string;
  readonly accessToken?: string;
}

export const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
};

export const sendOk = (res: ServerResponse, envelope: Envelope) => sendJson(res, 200, envelope);

export const sendFailure = (res: ServerResponse, type: ErrorType, message: string, field?: string, headers?: Record<string, string>) =>
  sendJson(res, errorStatus[type], { data: field === undefined ? { message } : { message, field }, responseType: type }, headers);

/** Seconds a client waits before trying again while the database is away. */
export const RETRY_AFTER_SECONDS = 2;

/** An unexpected error: 503 with Retry-After while the database is away, else 500; one log line either way. */
export const answerFault = (res: ServerResponse, e: unknown, what: string) => {
  if (isDatabaseUnavailable(e)) {
    // The database layer logs the outage once when it starts and once when it ends, not once per request.
    if (!res.headersSent)
      sendFailure(res, "unavailable", "The database is not reachable; try again in a moment", undefined, {
        "retry-after": String(RETRY_AFTER_SECONDS),
      });
    return;
  }
  // Damage the start's integrity pass could not see (it came later): said as such, not a bare internal error.
  if (isDataDamaged(e)) {
    log.error("database_damaged", { request: what, error: e });
    if (!res.headersSent)
      sendFailure(res, "unavailable", "The database is damaged: stop the server, run isopter check, and restore the last backup");
    return;
  }
  log.error("request_failed", { request: what, error: e });
  if (!res.headersSent) sendJson(res, 500, { data: { message: "Internal error" }, responseType: "internal_error" });
};
