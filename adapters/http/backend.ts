// Where the backend lives. "Base host is configured elsewhere" and "A QA preview host maps to a QA backend"
// (scheduling seed §7): a configuration maps the page's host to an API base and a live-socket URL.

export interface Backend {
  /** Base of every call, ending in "/": e.g. "http://127.0.0.1:3000/api/". */
  readonly apiBase: string;
  /** The live socket: e.g. "ws://127.0.0.1:3000/api/ws". */
  readonly socketUrl: string;
}

export interface BackendRule {
  /** Host to match: exact ("app.example.org"), or with "*" wildcards ("qa-preview-*.example.org"). */
  readonly host: string;
  readonly apiBase: string;
  /** Defaults to the API base's "ws" path with ws:/wss: scheme. */
  readonly socketUrl?: string;
}

export interface BackendConfig {
  /** Used when no rule matches (and outside a browser). */
  readonly apiBase: string;
  readonly socketUrl?: string;
  /** Checked in order; the first match wins (e.g. a QA-preview host mapped to the QA backend). */
  readonly rules?: readonly BackendRule[];
}

const withSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);

/** The live socket sits at the API's "ws" path: http(s) becomes ws(s). */
export const socketUrlFor = (apiBase: string): string => `${withSlash(apiBase).replace(/^http/, "ws")}ws`;

const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
    "i",
  );

/** The backend for a page host (e.g. `location.hostname`); undefined host means no browser: the default. */
export function backendFor(config: BackendConfig, host?: string): Backend {
  const rule = host === undefined ? undefined : config.rules?.find((r) => globToRegExp(r.host).test(host));
  const apiBase = withSlash(rule?.apiBase ?? config.apiBase);
  return { apiBase, socketUrl: rule?.socketUrl ?? (rule ? undefined : config.socketUrl) ?? socketUrlFor(apiBase) };
}
