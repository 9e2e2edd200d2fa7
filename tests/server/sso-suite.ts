import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProvider, type TestProvider } from "../support/oidc-provider.ts";
import { call, login, ok, type Backend, type TestServer, startTestServer } from "./harness.ts";
import { configureSso, signInVia, ssoBody } from "./sso-helpers.ts";

// Single sign-on through a real OpenID provider (issue 33 item 1), on PGlite and PostgreSQL: the settings as a
// manager sets them, the authorization code flow with PKCE, accounts created, linked, re-roled and disabled by the
// provider's answer, password sign-in turned off (administrators keep it), a provider that is down, and logout.

export const ssoSuite = (backend: Backend) =>
  describe(`single sign-on on ${backend}`, () => {
    let server: TestServer;
    let provider: TestProvider;
    let manager: string;
    const slug = `clinic-${backend}`;
    let offsetMs = 0;
    beforeAll(async () => {
      provider = await startTestProvider();
      server = await startTestServer(backend, { now: () => Date.now() + offsetMs });
      manager = await login(server.url, "manager");
      await configureSso(server.url, manager, provider, slug);
    }, 120_000);
    afterAll(async () => {
      await server?.drop();
      await provider?.stop();
    });

    it("keeps the client secret sealed: never answered, not in the database's row", async () => {
      const settings = (await ok(server.url, "sso.settings", {}, manager))!;
      expect(settings).toMatchObject({ slug, clientSecretSet: true, passwordLogin: true });
      expect(JSON.stringify(settings)).not.toContain(provider.clientSecret);
      const rows = await server.db.query("select * from sso_settings");
      expect(JSON.stringify(rows)).not.toContain(provider.clientSecret);
      const user = await login(server.url, "user");
      expect((await call(server.url, "sso.settings", {}, user)).status).toBe(403);
    });

    it("signs a new person in with PKCE (S256), creating the account with the role their groups grant", async () => {
      provider.people.set("alice", { email: "alice@hospital.example", groups: ["isopter-staff", "nurses"] });
      const begun = await ok(server.url, "sso.begin", { body: { organisation: slug, redirectOrigin: new URL(server.url).origin } });
      const url = new URL(begun.authorizationUrl);
      expect(url.origin).toBe(provider.issuer);
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url.searchParams.get("state")?.length).toBeGreaterThan(20);
      expect(url.searchParams.get("nonce")?.length).toBeGreaterThan(20);
      const callback = await provider.signIn(begun.authorizationUrl, "alice");
      const done = await call(server.url, "sso.complete", { body: { callback, binding: begun.binding } });
      expect(done.status).toBe(200);
      const me = await ok(server.url, "checkToken", {}, done.data.accessToken);
      expect(me).toMatchObject({ role: "user", email: "alice@hospital.example" });
      const listed = (await ok(server.url, "user.all", {}, manager)).find((u) => u.email === "alice@hospital.example");
      expect(listed).toMatchObject({ role: "user", status: "active" });
      // Such an account has no password: the password form cannot open it.
      expect((await call(server.url, "login", { body: { username: "alice@hospital.example", password: "Anything-1" } })).status).toBe(401);
    });

    it("the role follows the provider at each sign-in; the same person is the same account", async () => {
      provider.people.set("carol", { email: "carol@hospital.example", groups: ["isopter-staff"] });
      const first = await signInVia(server.url, provider, slug, "carol");
      const id = (await ok(server.url, "checkToken", {}, first.data.accessToken)).sub;
      provider.people.set("carol", { email: "carol@hospital.example", groups: ["isopter-staff", "isopter-managers"] });
      const second = await signInVia(server.url, provider, slug, "carol");
      expect(await ok(server.url, "checkToken", {}, second.data.accessToken)).toMatchObject({ sub: id, role: "manager" });
      // The first session ended when the second opened (the seeds' "another session opened").
      expect((await call(server.url, "patient.all", {}, first.data.accessToken)).status).toBe(401);
    });

    it("links an invited account by its verified e-mail address at the first sign-in", async () => {
      await ok(server.url, "user.invite", { body: { emails: ["bob@hospital.example"], role: "user" } }, manager);
      const invited = (await ok(server.url, "user.all", {}, manager)).find((u) => u.email === "bob@hospital.example")!;
      provider.people.set("bob", { email: "bob@hospital.example", groups: ["isopter-staff"] });
      const done = await signInVia(server.url, provider, slug, "bob");
      expect(await ok(server.url, "checkToken", {}, done.data.accessToken)).toMatchObject({ sub: invited.id });
      expect((await ok(server.url, "user.all", {}, manager)).find((u) => u.id === invited.id)).toMatchObject({ status: "active" });
    });

    it("disables the account when the provider no longer grants a role, ending its sessions; enables it when it does again", async () => {
      provider.people.set("dave", { email: "dave@hospital.example", groups: ["isopter-staff"] });
      const open = await signInVia(server.url, provider, slug, "dave");
      const id = (await ok(server.url, "checkToken", {}, open.data.accessToken)).sub;
      provider.people.set("dave", { email: "dave@hospital.example", groups: ["left-the-hospital"] });
      const refused = await signInVia(server.url, provider, slug, "dave");
      expect(refused.status).toBe(403);
      expect(refused.error?.message).toMatch(/None of your identity provider's 'groups' values grants a role/);
      expect((await call(server.url, "patient.all", {}, open.data.accessToken)).status).toBe(401);
      expect((await ok(server.url, "user.all", {}, manager)).find((u) => u.id === id)).toMatchObject({ status: "disabled" });
      provider.people.set("dave", { email: "dave@hospital.example", groups: ["isopter-staff"] });
      expect((await signInVia(server.url, provider, slug, "dave")).status).toBe(200);
      expect((await ok(server.url, "user.all", {}, manager)).find((u) => u.id === id)).toMatchObject({ status: "active" });
    });

    it("with password sign-in off, staff are sent to the provider and administrators keep their password", async () => {
      await configureSso(server.url, manager, provider, slug, { passwordLogin: false, clientSecret: null });
      expect(await ok(server.url, "sso.loginOptions", { query: { organisation: slug } })).toMatchObject({ passwordLogin: false });
      const refused = await call(server.url, "login", { body: { username: "manager", password: "Demo-Pass-123" } });
      expect(refused.status).toBe(403);
      expect(refused.error?.message).toContain("Sign in with Hospital Login");
      const admin = await login(server.url, "admin");
      // The way back: the administrator turns passwords on again.
      await configureSso(server.url, admin, provider, slug, { passwordLogin: true, clientSecret: null });
      manager = await login(server.url, "manager");
      // The stored secret was kept (null keeps it): sign-in still works.
      provider.people.set("erin", { email: "erin@hospital.example", groups: ["isopter-staff"] });
      expect((await signInVia(server.url, provider, slug, "erin")).status).toBe(200);
    });

    it("a provider that is down: sign-in says so (503), the login page is told, passwords still work", async () => {
      await provider.stop();
      try {
        const begun = await call(server.url, "sso.begin", { body: { organisation: slug, redirectOrigin: new URL(server.url).origin } });
        expect(begun.status).toBe(503);
        expect(begun.error?.message).toBe("Hospital Login cannot be reached just now; sign in with your password.");
        expect(await ok(server.url, "sso.loginOptions", { query: { organisation: slug } })).toMatchObject({
          providerReachable: false,
          passwordLogin: true,
        });
        expect((await call(server.url, "login", { body: { username: "user", password: "Demo-Pass-123" } })).status).toBe(200);
      } finally {
        await provider.restart();
      }
      provider.people.set("frank", { email: "frank@hospital.example", groups: ["isopter-staff"] });
      expect((await signInVia(server.url, provider, slug, "frank")).status).toBe(200);
    });

    it("logout ends the session here and answers the provider's end-session URL with the ID token as hint", async () => {
      provider.people.set("gina", { email: "gina@hospital.example", groups: ["isopter-staff"] });
      const done = await signInVia(server.url, provider, slug, "gina");
      const out = await ok(server.url, "sso.logout", {}, done.data.accessToken);
      const url = new URL(out.endSessionUrl!);
      expect(url.origin).toBe(provider.issuer);
      expect(url.searchParams.get("post_logout_redirect_uri")).toBe(`${server.url}/login/${slug}`);
      expect(url.searchParams.get("id_token_hint")?.split(".")).toHaveLength(3);
      expect((await call(server.url, "patient.all", {}, done.data.accessToken)).status).toBe(401);
      // The provider accepts the hint: its logout page answers (a confirmation that submits itself).
      expect((await fetch(url, { redirect: "manual" })).status).toBe(200);
      // A password session's logout through the same call answers no provider URL.
      const user = await login(server.url, "user");
      expect(await ok(server.url, "sso.logout", {}, user)).toEqual({ endSessionUrl: null });
    });

    it("the seeds' session rules hold for such a session: it expires like a login's", async () => {
      provider.people.set("hugo", { email: "hugo@hospital.example", groups: ["isopter-staff"] });
      const done = await signInVia(server.url, provider, slug, "hugo");
      expect((await call(server.url, "patient.all", {}, done.data.accessToken)).status).toBe(200);
      offsetMs = 31 * 60_000;
      try {
        const late = await call(server.url, "patient.all", {}, done.data.accessToken);
        expect([late.status, late.responseType]).toEqual([401, "token_expired"]);
      } finally {
        offsetMs = 0;
      }
    });

    it("a login link no organisation has is not found; another organisation cannot take the name", async () => {
      expect((await call(server.url, "sso.loginOptions", { query: { organisation: "nobody-here" } })).status).toBe(404);
      const other = await login(server.url, "appt.manager");
      const taken = await call(server.url, "sso.settingsUpdate", { body: ssoBody(provider, slug) }, other);
      expect([taken.status, taken.responseType, taken.error?.field]).toEqual([409, "conflict", "body.slug"]);
      // Nor does it read or end the first organisation's provider: its own settings are empty.
      expect(await ok(server.url, "sso.settings", {}, other)).toBeNull();
    });
  });
