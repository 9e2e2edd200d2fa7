import type { IncomingMessage, ServerResponse } from "node:http";

// The browser surface (issue 15 §4): security headers on every answer and the same-origin rule for the API and the
// sockets. The web app is served by this server, so its requests come from this very origin; a page elsewhere may
// not use a logged-in browser's reach (cross-origin requests and sockets are refused). Clients that are not
// browsers (CLI, headsets) send no Origin and pass; their requests carry a bearer token or a device credential anyway.

/**
 * The app: scripts and styles only from files of this origin (no inline script, no eval); sockets to this origin.
 * 'wasm-unsafe-eval' lets the page compile WebAssembly, and nothing else: the core's PoPLR sieve ships as WebAssembly
 * bytes inside the app's own script (core/analytics/progression/poplr-sieve.ts); JavaScript eval stays refused.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "media-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** The users manuals (PDF documents, npm run build:manuals), framed only by the app itself. */
export const MANUAL_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; frame-ancestors 'self'";

/** API answers are data, never a page: nothing may run, be framed or be kept by a cache. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

const common = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

export const setApiHeaders = (res: ServerResponse) => {
  for (const [k, v] of Object.entries(common)) res.setHeader(k, v);
  res.setHeader("content-security-policy", API_CSP);
  res.setHeader("x-frame-options", "DENY");
  res.setHeader("cache-control", "no-store");
};

export const setSiteHeaders = (res: ServerResponse, pathname: string) => {
  for (const [k, v] of Object.entries(common)) res.setHeader(k, v);
  const manual = pathname.startsWith("/manuals/");
  res.setHeader("content-security-policy", manual ? MANUAL_CSP : APP_CSP);
  res.setHeader("x-frame-options", manual ? "SAMEORIGIN" : "DENY");
};

/**
 * Whether a request's Origin (when it has one) is this server's own: same host and port as the Host header it was
 * sent to, or one listed in `allowed` (ISOPTER_ALLOWED_ORIGINS, e.g. a proxy's public origin). A request without
 * Origin is not a browser's cross-origin request (browsers send Origin on every cross-origin fetch and socket).
 */
export const sameOrigin = (req: IncomingMessage, allowed: ReadonlyArray<string>): boolean => {
  const origin = req.headers.origin;
  if (origin === undefined) return req.headers["sec-fetch-site"] !== "cross-site";
  if (allowed.includes(origin)) return true;
  try {
    return new URL(origin).host === (req.headers.host ?? "");
  } catch {
    return false;
  }
};
