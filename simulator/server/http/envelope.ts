import type { ServerResponse } from "node:http";
import { errorStatus, type ErrorType } from "../../../core/model/contract/index.ts";

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
