// A stand-in backend on 127.0.0.1:0 speaking the contract's envelope ({data, responseType?, accessToken?}) for the
// calls the CLI makes, over the generated clinic of fixtures.ts. Used until (and beside) the simulator's server tests.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiError } from "../../core/model/contract/errors.ts";
import { fakeApi, type FakeClinic } from "./fixtures.ts";

export const FAKE_USER = { username: "admin@clinic.test", password: "Secret-123" } as const;
export const FAKE_TOKEN = "fake-token-1";

export interface FakeBackend {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

const routes: Record<string, string> = {
  "POST /api/login": "login",
  "POST /api/logout": "logout",
  "GET /api/patient": "patient.get",
  "POST /api/patient/search": "patient.search",
  "GET /api/perimetry/all": "perimetry.all",
  "GET /api/examination/all": "examination.all",
  "POST /api/perimetry/page": "perimetry.page",
  "GET /api/organisation/current": "organisation.current",
};

export async function startFakeBackend(clinic: FakeClinic): Promise<FakeBackend> {
  const api = fakeApi(clinic);
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const key = `${req.method} ${url.pathname}`;
    requests.push(`${key}${url.search}`);
    let body = "";
    for await (const chunk of req) body += chunk;
    const send = (status: number, envelope: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(envelope));
    };
    const name = routes[key];
    if (!name) return send(404, { data: { message: `no route ${key}` }, responseType: "not_found" });
    if (name === "login") {
      const { username, password } = JSON.parse(body || "{}");
      if (username === FAKE_USER.username && password === FAKE_USER.password)
        return send(200, { data: { accessToken: FAKE_TOKEN }, accessToken: FAKE_TOKEN });
      return send(401, { data: { message: "Login failed." }, responseType: "invalid_credentials" });
    }
    if (req.headers.authorization !== `Bearer ${FAKE_TOKEN}`)
      return send(401, { data: { message: "token expired" }, responseType: "token_expired" });
    if (name === "logout") return send(200, { data: null });
    try {
      const query = Object.fromEntries(url.searchParams);
      const data = await api.call(name as never, { query, body: body ? JSON.parse(body) : undefined } as never);
      send(200, { data });
    } catch (e) {
      if (e instanceof ApiError) return send(e.status, { data: { message: e.message }, responseType: e.responseType });
      send(500, { data: { message: String(e) }, responseType: "internal_error" });
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
