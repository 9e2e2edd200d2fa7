import { describe, expect, it } from "vitest";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import { createClient } from "../../core/client/index.ts";
import { SignOnKeys } from "../../core/client/sign-on-facet.ts";
import { StorageKeys } from "../../core/ports.ts";
import { fail, fakeApi, fakeSocket, type FakeApi } from "./fakes.ts";

// The sign-on facet (issue 33 item 1): a completed sign-in is a session like a login's (token stored, logged in, home);
// its logout ends the session here and answers the provider's end-session URL; a password session's logout is the
// seeds' logout alone; a refused sign-in leaves no session.

function setup(api: FakeApi) {
  const storage = memoryStorage();
  const client = createClient({ api, socket: fakeSocket(), storage, clock: createVirtualClock() }, { variant: "measurements" });
  const navigations: string[] = [];
  client.events.on("navigate", (n) => navigations.push(n.to));
  return { client, storage, navigations };
}

describe("signOn", () => {
  it("completes with the binding begin kept, opens the session and goes home; its logout goes through the provider", async () => {
    const api = fakeApi({
      "sso.begin": () => ({ authorizationUrl: "https://idp.example/auth", binding: "b-1" }),
      "sso.complete": () => ({ accessToken: "h.e30.s" }),
      checkToken: () => ({}),
      "sso.logout": () => ({ endSessionUrl: "https://idp.example/logout?id_token_hint=x" }),
      logout: fail(401, "token_verification_error"),
    });
    const { client, storage, navigations } = setup(api);
    expect(await client.signOn.begin("st-marys", "https://isopter.example")).toBe("https://idp.example/auth");
    await client.signOn.complete("?code=c&state=s");
    expect(api.calls.find((c) => c.endpoint === "sso.complete")!.input.body).toEqual({ callback: "?code=c&state=s", binding: "b-1" });
    expect(storage.session.get(SignOnKeys.binding)).toBeNull();
    expect([client.session.state.status, client.session.accessToken]).toEqual(["logged-in", "h.e30.s"]);
    expect(navigations).toContain("home");
    expect(await client.signOn.logout()).toBe("https://idp.example/logout?id_token_hint=x");
    expect(client.session.state.status).toBe("logged-out");
    expect(storage.session.get(StorageKeys.session.accessToken)).toBeNull();
  });

  it("a password session's logout is the seeds' logout alone and answers no provider URL", async () => {
    const api = fakeApi({ logout: () => null, checkToken: () => ({}) });
    const { client, storage } = setup(api);
    storage.session.set(StorageKeys.session.accessToken, "tok");
    await client.session.start();
    expect(await client.signOn.logout()).toBeNull();
    expect(api.calls.map((c) => c.endpoint)).not.toContain("sso.logout");
    expect(api.calls.map((c) => c.endpoint)).toContain("logout");
  });

  it("a refused sign-in rejects with the server's reason and opens no session", async () => {
    const api = fakeApi({ "sso.complete": fail(401, "invalid_credentials", "This sign-in has been used already; sign in again.") });
    const { client } = setup(api);
    await expect(client.signOn.complete("?code=c&state=s")).rejects.toMatchObject({ responseType: "invalid_credentials" });
    expect(client.session.state.status).toBe("logged-out");
  });
});
