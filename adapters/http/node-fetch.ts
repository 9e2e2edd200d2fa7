import http from "node:http";
import https from "node:https";
import type { FetchLike, HttpResponseLike } from "./http-api.ts";

// The HTTP adapter's transport for Node processes (the CLI): node:http with one keep-alive agent per process instead of
// the global fetch. For the many small calls of an export (a page of patients, then each patient's results) fetch's
// WHATWG machinery (Request/Response objects, web streams) costs about half a millisecond a call; this costs a tenth
// of that. Only what createHttpApi uses: method, headers, a text body; status, ok, statusText and json().
// Not exported from index.ts: the web app's bundle must not pull in node:http.

export interface NodeFetchOptions {
  /** Sockets per server (default 8: an export keeps a few calls in flight). */
  readonly maxSockets?: number;
}

export function nodeFetch(options: NodeFetchOptions = {}): FetchLike {
  // Idle keep-alive sockets are unref'd by the agent, so they never hold a finished command open.
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 8 }),
    https: new https.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 8 }),
  };
  return (url, init) =>
    new Promise<HttpResponseLike>((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === "https:";
      if (!secure && target.protocol !== "http:") return reject(new TypeError(`unsupported protocol ${target.protocol}`));
      const body = init.body;
      const headers: Record<string, string | number> = { ...init.headers };
      if (body !== undefined) headers["content-length"] = Buffer.byteLength(body);
      const request = (secure ? https : http).request(
        target,
        { method: init.method, headers, agent: secure ? agents.https : agents.http },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () => {
            const status = res.statusCode ?? 0;
            const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
            resolve({
              status,
              ok: status >= 200 && status < 300,
              statusText: res.statusMessage ?? "",
              json: async () => JSON.parse(bytes.toString("utf8")) as unknown,
            });
          });
        },
      );
      request.on("error", reject);
      request.end(body);
    });
}
