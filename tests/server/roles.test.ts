import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "../../core/model/enums.ts";
import { deleteRefusal, roleChangeRefusal } from "../../core/rules/user-admin.ts";
import { call, fakeHeadset, liveSocket, login, raw, startTestServer, type TestServer } from "./harness.ts";

// Roles and sessions, enforced by the server: "Managers can access the users page: invite by e-mail, change roles,
// delete users ... The user role cannot reach the users page" (accounts §6); token expiry and "another session opened"
// on the live socket (accounts §4, §8); login attempts rate-limited per client (issue #4).

describe("roles, sessions and the login rate limit", () => {
  let server: TestServer;
  let base: string;
  let offsetMs = 0;

  beforeAll(async () => {
    server = await startTestServer("pglite", {
      now: () => Date.now() + offsetMs,
      settings: { loginFailuresAllowed: 3, loginWindowMs: 60_000, accessTokenTtlSeconds: 600, deviceSilenceMs: 400 },
    });
    base = server.url;
  }, 180_000);
  afterAll(async () => server?.drop());

  it("'The user role cannot reach the users page': user/all, invite, update and delete answer 403 for the user role", async () => {
    const user = await login(base, "user");
    const manager = await login(base, "manager");
    const someone = (await call(base, "user.all", {}, manager)).data.find((u) => u.username === "admin")!;
    expect((await call(base, "user.all", {}, user)).status).toBe(403);
    expect((await call(base, "user.invite", { body: { emails: ["x@y.test"], role: "user" } }, user)).responseType).toBe("forbidden");
    expect((await call(base, "user.update", { query: { id: someone.id }, body: { role: "user" } }, user)).status).toBe(403);
    expect((await call(base, "user.delete", { query: { id: someone.id } }, user)).status).toBe(403);
    // The clinical side is open to every logged-in role.
    expect((await call(base, "patient.all", {}, user)).status).toBe(200);
    expect((await call(base, "device.all", {}, user)).status).toBe(200);
  });

  it("only managers administer users: the admin role gets 403 there too, managers cannot grant admin or change themselves", async () => {
    const admin = await login(base, "admin");
    const manager = await login(base, "manager");
    expect((await call(base, "user.all", {}, admin)).status).toBe(403);
    const users = (await call(base, "user.all", {}, manager)).data;
    const me = users.find((u) => u.username === "manager")!;
    const user = users.find((u) => u.username === "user")!;
    expect((await call(base, "user.update", { query: { id: me.id }, body: { role: "user" } }, manager)).status).toBe(403);
    expect((await call(base, "user.delete", { query: { id: me.id } }, manager)).status).toBe(403);
    expect((await call(base, "user.update", { query: { id: user.id }, body: { role: "admin" } }, manager)).status).toBe(403);
    expect((await call(base, "user.invite", { body: { emails: ["boss@demo.test"], role: "admin" } }, manager)).status).toBe(403);
    expect((await call(base, "user.update", { query: { id: "nobody" }, body: { role: "user" } }, manager)).status).toBe(404);
  });

  it("answers a manager exactly as core/rules/user-admin says (the users page offers only what these allow)", async () => {
    const manager = await login(base, "manager");
    const users = (await call(base, "user.all", {}, manager)).data;
    const me = users.find((u) => u.username === "manager")!;
    const actor = { id: me.id, role: me.role };
    for (const target of users) {
      for (const role of new Set([target.role, Role.Admin])) {
        const allowed = roleChangeRefusal(actor, target, role) === null;
        const answer = await call(base, "user.update", { query: { id: target.id }, body: { role } }, manager);
        expect([target.username, role, answer.status]).toEqual([target.username, role, allowed ? 200 : 403]);
      }
      // Only the refused deletes are tried (an allowed one would delete the demo account).
      if (deleteRefusal(actor, target) !== null)
        expect((await call(base, "user.delete", { query: { id: target.id } }, manager)).status).toBe(403);
    }
    expect(users.some((u) => deleteRefusal(actor, u) === "admin-account")).toBe(true);
  });

  it("a newer login of the same user ends the older live session with another_session_opened", async () => {
    const first = await liveSocket(base, await login(base, "manager"));
    await login(base, "manager");
    const ended = await first.next((m) => m.type === "another_session_opened");
    expect(ended.type).toBe("another_session_opened");
    expect(await first.closed).toBe(4001);
  });

  it("an expired token: HTTP answers 401 token_expired, the live socket gets token_expired and closes", async () => {
    const token = await login(base, "user");
    const socket = await liveSocket(base, token);
    offsetMs += 601_000;
    const r = await raw(base, "GET", "patient/all", undefined, token);
    expect([r.status, r.json.responseType]).toEqual([401, "token_expired"]);
    expect((await socket.next((m) => m.type === "token_expired", 4000)).type).toBe("token_expired");
    expect(await socket.closed).toBe(4001);
    offsetMs = 0;
  });

  it("a refreshed access token rides on every authenticated answer and works in turn", async () => {
    const token = await login(base, "user");
    const r = await raw(base, "GET", "device/all", undefined, token);
    expect(typeof r.json.accessToken).toBe("string");
    expect((await raw(base, "GET", "device/all", undefined, r.json.accessToken)).status).toBe(200);
  });

  it("login attempts are limited per client: after 3 failures even the right password gets 429 until the window passes", async () => {
    for (let i = 0; i < 3; i++)
      expect((await call(base, "login", { body: { username: "user", password: "Wrong-Pass-1" } })).status).toBe(401);
    const limited = await call(base, "login", { body: { username: "user", password: "Demo-Pass-123" } });
    expect([limited.status, limited.responseType]).toEqual([429, "rate_limited"]);
    offsetMs += 61_000;
    expect((await call(base, "login", { body: { username: "user", password: "Demo-Pass-123" } })).status).toBe(200);
  });

  it("'No heartbeat for 4 s marks it disconnected' (here 0.4 s): a silent headset goes DISCONNECTED, its next message CONNECTED again", async () => {
    const token = await login(base, "user");
    const live = await liveSocket(base, token);
    const sn = (await call(base, "device.all", {}, token)).data[0]!.deviceSn;
    const headset = await fakeHeadset(server, sn);
    const isConnection = (c: string) => (m: { type: string; deviceSn?: string; data?: unknown }) =>
      m.type === "connection" && m.deviceSn === sn && (m.data as { connection: string }).connection === c;
    await live.next(isConnection("CONNECTED") as never);
    const mark = live.messages.length;
    await live.next(isConnection("DISCONNECTED") as never, 5000, mark);
    expect((await call(base, "device.all", {}, token)).data[0]!.connection).toBe("DISCONNECTED");
    const mark2 = live.messages.length;
    headset.send({ type: "heartbeat", battery: { vr: 50, clicker: 50, vrCharging: false, clickerCharging: false } });
    await live.next(isConnection("CONNECTED") as never, 5000, mark2);
    await headset.close();
    live.close();
  });
});
