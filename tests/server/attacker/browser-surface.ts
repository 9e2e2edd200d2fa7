import { expect, it } from "vitest";
import WebSocket from "ws";
import { readConfig } from "../../../simulator/server/config.ts";
import { startServer } from "../../../simulator/server/server.ts";
import { call, login, raw, testStorage, type Backend, type TestServer } from "../harness.ts";

// Issue 15 §4, played by an attacker: a page on another origin calls the API and opens the live socket with the
// victim's browser; answers are read for headers that stop sniffing, framing and caching; the dev routes are probed in
// production mode and across organisations.

const foreign = "http://evil.example";

/** Opens a socket with the given Origin; answers the HTTP status of a refused upgrade, or 101 when it opened. */
const upgradeStatus = (base: string, path: string, origin?: string) =>
  new Promise<number>((resolve) => {
    const socket = new WebSocket(`${base.replace(/^http/, "ws")}${path}`, origin ? { origin } : {});
    socket.once("open", () => {
      socket.close();
      resolve(101);
    });
    socket.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    socket.once("error", () => resolve(0));
  });

export const browserSurfaceCases = (backend: Backend, server: () => TestServer) => {
  it("every API answer, success or failure, says nosniff, no-store, frame-ancestors 'none' and a Referrer-Policy", async () => {
    const base = server().url;
    const token = await login(base, "user");
    for (const [path, auth] of [
      ["patient/all", token],
      ["patient/all", undefined],
      ["nothing/here", undefined],
      ["openapi.json", undefined],
    ] as const) {
      const res = await fetch(`${base}/api/${path}`, auth ? { headers: { authorization: `Bearer ${auth}` } } : {});
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
    }
  });

  it("the app's pages carry a CSP without inline script, frame-ancestors 'none' and nosniff; the manuals may be framed by the app only", async () => {
    const base = server().url;
    const page = await fetch(`${base}/patients/xyz`);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    // JavaScript eval stays refused; WebAssembly may be compiled (the core's PoPLR sieve).
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const manual = await fetch(`${base}/manuals/fda/part-1.pdf`);
    expect(manual.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    expect(manual.headers.get("content-security-policy")).not.toContain("script-src");
  });

  it("a page on another origin cannot call the API, not even the login or a preflight; the same origin and no Origin (CLI) can", async () => {
    const base = server().url;
    const token = await login(base, "user");
    const from = (origin: string | undefined, method = "GET", path = "patient/all") =>
      fetch(`${base}/api/${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(origin ? { origin } : {}) } });
    const refused = await from(foreign);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { data: { field: string } }).data.field).toBe("origin");
    expect((await from(foreign, "OPTIONS")).status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    const loginFromElsewhere = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { origin: foreign, "content-type": "text/plain" },
      body: JSON.stringify({ username: "user", password: "Demo-Pass-123" }),
    });
    expect(loginFromElsewhere.status).toBe(403);
    expect((await from(new URL(base).origin)).status).toBe(200);
    expect((await from(undefined)).status).toBe(200);
    // A navigation from another site without Origin (a link to the API) is refused too.
    expect(
      (await fetch(`${base}/api/patient/all`, { headers: { authorization: `Bearer ${token}`, "sec-fetch-site": "cross-site" } })).status,
    ).toBe(403);
  });

  it("the live socket and the headset socket refuse a foreign Origin; the app's own origin and no Origin open", async () => {
    const base = server().url;
    expect(await upgradeStatus(base, "/api/ws", foreign)).toBe(403);
    expect(await upgradeStatus(base, "/device", foreign)).toBe(403);
    expect(await upgradeStatus(base, "/api/ws", new URL(base).origin)).toBe(101);
    expect(await upgradeStatus(base, "/api/ws")).toBe(101);
  });

  it("in production mode /api/dev/* does not exist (404), in development mode it answers; NODE_ENV=production or ISOPTER_DEV_ROUTES=off switch it off", async () => {
    expect(readConfig({}).devRoutes).toBe(true);
    expect(readConfig({ NODE_ENV: "production" }).devRoutes).toBe(false);
    expect(readConfig({ NODE_ENV: "production", ISOPTER_DEV_ROUTES: "on" }).devRoutes).toBe(true);
    expect(readConfig({ ISOPTER_DEV_ROUTES: "off" }).devRoutes).toBe(false);
    expect(() => readConfig({ ISOPTER_DEV_ROUTES: "maybe" })).toThrow(/ISOPTER_DEV_ROUTES/);
    const { storage, drop } = await testStorage(backend);
    const production = await startServer({ storage, port: 0, webRoot: "/nonexistent-web-root", devRoutes: false });
    try {
      const { seedDemo } = await import("../../../simulator/server/demo/seed.ts");
      await seedDemo(production.db, { password: "Demo-Pass-123", headsets: 1, results: "fixtures" });
      const admin = await login(production.url, "admin");
      for (const [method, path] of [
        ["GET", "dev/outbox"],
        ["PATCH", "dev/organisation"],
        ["GET", "dev/simulator/headsets"],
        ["POST", "dev/simulator/faults"],
      ] as const) {
        const r = await raw(production.url, method, path, method === "GET" ? undefined : {}, admin);
        expect([r.status, r.json.responseType], `${method} ${path}`).toEqual([404, "not_found"]);
      }
      expect((await call(production.url, "patient.all", {}, admin)).status).toBe(200);
    } finally {
      await production.close();
      await drop();
    }
    expect((await raw(server().url, "GET", "dev/outbox", undefined, await login(server().url, "admin"))).status).toBe(200);
  }, 120_000); // a second server: migrations and a seeded demo clinic
};

/** The dev routes' simulator control acts only inside the caller's organisation (a server with running headsets). */
export const devRoutesScopeCases = (server: () => TestServer) => {
  it("a manager of another organisation neither lists nor faults, removes or re-speeds the demo clinic's simulated headsets", async () => {
    const base = server().url;
    const demo = await login(base, "manager");
    const other = await login(base, "appt.manager");
    const listed = (token: string) =>
      raw(base, "GET", "dev/simulator/headsets", undefined, token).then((r) =>
        (r.json.data as { headsets: Array<{ deviceSn: string }> }).headsets.map((h) => h.deviceSn).sort(),
      );
    expect(await listed(demo)).toEqual(["VR-0001"]);
    expect(await listed(other)).toEqual(["VR-A001"]);
    const attacks = [
      ["POST", "dev/simulator/faults", { deviceSn: "VR-0001", fault: "battery-empty" }, "body.deviceSn"],
      ["PATCH", "dev/simulator/headsets", { deviceSn: "VR-0001", speed: 3 }, "body.deviceSn"],
      ["DELETE", "dev/simulator/headsets?deviceSn=VR-0001", undefined, "query.deviceSn"],
    ] as const;
    for (const [method, path, body, field] of attacks) {
      const r = await raw(base, method, path, body, other);
      expect([r.status, r.json.responseType, (r.json.data as { field?: string }).field], `${method} ${path}`).toEqual([
        404,
        "not_found",
        field,
      ]);
    }
    const all = await raw(base, "PATCH", "dev/simulator/headsets", { all: true, speed: 3 }, other);
    expect((all.json.data as { headsets: Array<{ deviceSn: string }> }).headsets.map((h) => h.deviceSn)).toEqual(["VR-A001"]);
    const mine = (await raw(base, "GET", "dev/simulator/headsets", undefined, demo)).json.data as {
      headsets: Array<{ deviceSn: string; speed: number; powered: boolean }>;
    };
    expect(mine.headsets[0]).toMatchObject({ deviceSn: "VR-0001", speed: 5, powered: true });
  });
};
