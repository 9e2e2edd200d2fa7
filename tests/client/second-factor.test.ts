import { describe, expect, it } from "vitest";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import { createClient } from "../../core/client/index.ts";
import { StorageKeys } from "../../core/ports.ts";
import { fail, fakeApi, fakeSocket, type FakeApi } from "./fakes.ts";

// The second step of a login in core/client (issue 33 item 2): a login answered with a challenge is no session; the
// code (or, when enrolling, the first code and the recovery codes shown) starts it; refusals say why.

const claims = { role: "user", username: "ann", email: "ann@clinic.example", exp: 4_000_000_000 };

function setup(api: FakeApi) {
  const storage = memoryStorage();
  const socket = fakeSocket();
  const client = createClient({ api, socket, storage, clock: createVirtualClock(1_700_000_000_000) }, { variant: "measurements" });
  const navigations: string[] = [];
  client.events.on("navigate", (n) => navigations.push(n.to));
  return { client, storage, socket, navigations };
}

describe("second factor at login", () => {
  it("verify: the challenge is not stored as a token; a wrong code says so and keeps the step; the right one signs in", async () => {
    const api = fakeApi({ login: () => ({ accessToken: "challenge-1", secondFactor: { step: "verify" } }), checkToken: () => claims });
    const { client, storage, navigations } = setup(api);
    expect(await client.session.login("ann", "pw")).toBe(false);
    expect(client.session.state).toMatchObject({ status: "logged-out", loginError: null });
    expect(client.session.secondFactor.pending).toBe("verify");
    expect(storage.session.get(StorageKeys.session.accessToken)).toBeNull();
    api.on("secondFactor.signIn", fail(401, "invalid_credentials"));
    expect(await client.session.secondFactor.verify("000000")).toEqual({ ok: false, refusal: "wrong" });
    expect(client.session.secondFactor.pending).toBe("verify");
    api.on("secondFactor.signIn", fail(429, "rate_limited"));
    expect(await client.session.secondFactor.verify("000001")).toEqual({ ok: false, refusal: "too-many" });
    api.on("secondFactor.signIn", ({ body }) =>
      body.code === "123456" && body.challenge === "challenge-1" ? { accessToken: "session" } : null,
    );
    expect(await client.session.secondFactor.verify("123456")).toEqual({ ok: true, value: null });
    expect(storage.session.get(StorageKeys.session.accessToken)).toBe("session");
    expect(client.session.state.status).toBe("logged-in");
    expect(client.session.secondFactor.pending).toBeNull();
    expect(navigations).toEqual(["home"]);
  });

  it("an expired sign-in goes back to the password", async () => {
    const api = fakeApi({
      login: () => ({ accessToken: "c", secondFactor: { step: "verify" } }),
      "secondFactor.signIn": fail(401, "token_expired"),
    });
    const { client } = setup(api);
    await client.session.login("ann", "pw");
    expect(await client.session.secondFactor.verify("123456")).toEqual({ ok: false, refusal: "expired" });
    expect(client.session.secondFactor.pending).toBeNull();
    expect(client.session.state.dialog).toBeNull(); // not the session-expired dialog: there was no session
  });

  it("enrol: the secret, then the first code answers the recovery codes; the session starts only once they have been shown", async () => {
    const api = fakeApi({
      login: () => ({ accessToken: "c", secondFactor: { step: "enrol" } }),
      "secondFactor.signInEnrol": () => ({ secret: "ABC", uri: "otpauth://totp/Isopter:ann?secret=ABC" }),
      "secondFactor.signInConfirm": () => ({ accessToken: "session", recoveryCodes: ["aaaaa-bbbbb"] }),
      checkToken: () => claims,
    });
    const { client, storage } = setup(api);
    await client.session.login("ann", "pw");
    expect(client.session.secondFactor.pending).toBe("enrol");
    expect(await client.session.secondFactor.enrol()).toEqual({
      ok: true,
      value: { secret: "ABC", uri: "otpauth://totp/Isopter:ann?secret=ABC" },
    });
    expect(await client.session.secondFactor.confirm("123456")).toEqual({ ok: true, value: ["aaaaa-bbbbb"] });
    expect(storage.session.get(StorageKeys.session.accessToken)).toBeNull();
    client.session.secondFactor.finish();
    expect(storage.session.get(StorageKeys.session.accessToken)).toBe("session");
    expect(client.session.state.status).toBe("logged-in");
  });
});
