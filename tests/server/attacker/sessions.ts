import { expect, it } from "vitest";
import { call, liveSocket, login, ok, raw } from "../harness.ts";
import { newAccount, type ServerRef } from "./accounts.ts";

// Issue 15 §2: a stolen or left-behind token is replayed after the events that should end its session: logout,
// password change, password reset, role change, deletion and another login of the same user. Each time HTTP answers
// 401 (the seeds' client: the session-expired dialog) and the live socket is told and closed at once.

const refusedOverHttp = async (base: string, token: string) => {
  const r = await raw(base, "GET", "patient/all", undefined, token);
  return [r.status, r.json.responseType];
};

export const sessionCases = (server: ServerRef) => {
  it("after logout the token, and every token renewed from it, is refused over HTTP; its live socket closes at once", async () => {
    const base = server().url;
    const a = await newAccount(base);
    const token = await login(base, a.username, a.password);
    const renewed = (await raw(base, "GET", "device/all", undefined, token)).json.accessToken!;
    const socket = await liveSocket(base, renewed);
    expect((await call(base, "logout", {}, token)).status).toBe(200);
    expect(await refusedOverHttp(base, token)).toEqual([401, "token_verification_error"]);
    expect(await refusedOverHttp(base, renewed)).toEqual([401, "token_verification_error"]);
    expect((await socket.next((m) => m.type === "token_verification_error")).type).toBe("token_verification_error");
    expect(await socket.closed).toBe(4001);
    // A socket opened later with the old token is refused at the handshake.
    const late = await liveSocket(base, token).catch((e: Error) => e);
    expect(late).toBeInstanceOf(Error);
  });

  it("a password change ends the user's other sessions (HTTP and socket); the session that changed it goes on", async () => {
    const base = server().url;
    const a = await newAccount(base);
    const stolen = await login(base, a.username, a.password);
    const socket = await liveSocket(base, stolen);
    // The owner logs in elsewhere (ending the stolen session already) and changes the password.
    const owner = await login(base, a.username, a.password);
    expect((await socket.next((m) => m.type === "another_session_opened")).type).toBe("another_session_opened");
    expect(await refusedOverHttp(base, stolen)).toEqual([401, "token_verification_error"]);
    await ok(base, "passwordChange", { body: { old_password: a.password, new_password: "Changed-Pass-2" } }, owner);
    expect((await call(base, "patient.all", {}, owner)).status).toBe(200);
    expect((await call(base, "login", { body: { username: a.username, password: a.password } })).status).toBe(401);
    const fresh = await login(base, a.username, "Changed-Pass-2");
    const freshSocket = await liveSocket(base, fresh);
    // The same again with two sessions open at the change: the change from the newest ends the other one.
    const newest = await login(base, a.username, "Changed-Pass-2");
    await freshSocket.next((m) => m.type === "another_session_opened");
    await ok(base, "passwordChange", { body: { old_password: "Changed-Pass-2", new_password: "Changed-Pass-3" } }, newest);
    expect(await refusedOverHttp(base, fresh)).toEqual([401, "token_verification_error"]);
    expect((await call(base, "patient.all", {}, newest)).status).toBe(200);
  });

  it("a password reset ends every session of the user at once, over HTTP and on the socket", async () => {
    const base = server().url;
    const a = await newAccount(base);
    const token = await login(base, a.username, a.password);
    const socket = await liveSocket(base, token);
    await ok(base, "passwordReset.request", { body: { email: a.email } });
    const admin = await login(base, "admin");
    const link = ((await raw(base, "GET", `dev/outbox?to=${a.email}`, undefined, admin)).json.data as Array<{ link: string | null }>).find(
      (m) => m.link?.includes("/password-reset/"),
    )!.link!;
    const reset = link.split("/password-reset/")[1]!;
    await ok(base, "passwordReset.confirm", { token: reset, body: { email: a.email, token: reset, password: "Reset-Pass-4" } });
    expect(await refusedOverHttp(base, token)).toEqual([401, "token_verification_error"]);
    expect((await socket.next((m) => m.type === "token_verification_error")).type).toBe("token_verification_error");
    expect(await socket.closed).toBe(4001);
    expect((await call(base, "patient.all", {}, await login(base, a.username, "Reset-Pass-4"))).status).toBe(200);
  });

  it("a role change and a deletion end the user's sessions at once: the old token no longer carries the old role", async () => {
    const base = server().url;
    const a = await newAccount(base, "manager");
    const token = await login(base, a.username, a.password);
    expect((await call(base, "user.all", {}, token)).status).toBe(200);
    const socket = await liveSocket(base, token);
    const manager = await login(base, "manager");
    await ok(base, "user.update", { query: { id: a.id }, body: { role: "user" } }, manager);
    expect(await refusedOverHttp(base, token)).toEqual([401, "token_verification_error"]);
    expect((await raw(base, "GET", "user/all", undefined, token)).status).toBe(401);
    await socket.next((m) => m.type === "token_verification_error");
    expect(await socket.closed).toBe(4001);
    const asUser = await login(base, a.username, a.password);
    expect((await call(base, "user.all", {}, asUser)).status).toBe(403);
    const userSocket = await liveSocket(base, asUser);
    await ok(base, "user.delete", { query: { id: a.id } }, manager);
    expect(await refusedOverHttp(base, asUser)).toEqual([401, "token_verification_error"]);
    await userSocket.next((m) => m.type === "token_verification_error");
    expect((await call(base, "login", { body: { username: a.username, password: a.password } })).status).toBe(401);
  });

  it("another session opened: the older token is refused over HTTP (saying why) and its socket is told another_session_opened", async () => {
    const base = server().url;
    const a = await newAccount(base);
    const first = await login(base, a.username, a.password);
    const socket = await liveSocket(base, first);
    const second = await login(base, a.username, a.password);
    expect((await socket.next((m) => m.type === "another_session_opened")).type).toBe("another_session_opened");
    const r = await raw(base, "GET", "patient/all", undefined, first);
    expect([r.status, r.json.responseType]).toEqual([401, "token_verification_error"]);
    expect((r.json.data as { message: string }).message).toMatch(/logged in from another web client/);
    expect((await call(base, "patient.all", {}, second)).status).toBe(200);
    // The tokens carry the session: the server keeps one row per login, the ended one says why.
    const rows = await server().db.query<{ end_reason: string | null }>(
      "select end_reason from sessions where user_id = $1 order by created_at",
      [a.id],
    );
    expect(rows.map((x) => x.end_reason)).toEqual(["another_session_opened", null]);
  });

  it("token lifetime and renewal look as before to the client: every authenticated answer carries a fresh token of the same session", async () => {
    const base = server().url;
    const a = await newAccount(base);
    let token = await login(base, a.username, a.password);
    for (let i = 0; i < 3; i++) {
      const r = await raw(base, "GET", "device/all", undefined, token);
      expect(r.status).toBe(200);
      const claims = (t: string) => JSON.parse(Buffer.from(t.split(".")[1]!, "base64url").toString()) as { exp: number; sid: string };
      expect(claims(r.json.accessToken!).sid).toBe(claims(token).sid);
      expect(claims(r.json.accessToken!).exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(29 * 60);
      token = r.json.accessToken!;
    }
  });
};
