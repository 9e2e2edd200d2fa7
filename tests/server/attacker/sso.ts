import { afterAll, beforeAll, expect, it } from "vitest";
import type { AuditFilter } from "../../../core/model/audit.ts";
import { startTestProvider, type TestProvider } from "../../support/oidc-provider.ts";
import { call, login, ok } from "../harness.ts";
import { beginAndAuthorize, configureSso } from "../sso-helpers.ts";
import type { ServerRef } from "./accounts.ts";

// Issue 33's single sign-on played by an attacker against a real provider (oidc-provider): an ID token forged with
// another key, an expired one, one for another audience or from another issuer (each signed with the provider's own
// key, so only the claim is wrong), a replayed state, a token replayed into another sign-in (its nonce), a callback
// completed in another browser, and a person the provider grants no role. Each is refused with a message that says
// why, opens no session and no account, and is in the organisation's audit trail with its reason (action sso.signIn).

const SLUG = "attacked-clinic";
const none: AuditFilter = { from: null, to: null, userId: null, patientId: null, action: "sso.signIn" };

export const ssoAttackCases = (server: ServerRef) => {
  let provider: TestProvider;
  beforeAll(async () => {
    provider = await startTestProvider();
    provider.people.set("mallory", { email: "mallory@hospital.example", groups: ["isopter-staff"] });
    provider.people.set("visitor", { email: "visitor@hospital.example", groups: ["visitors"] });
    await configureSso(server().url, await login(server().url, "manager"), provider, SLUG);
  }, 60_000);
  afterAll(async () => {
    await ok(server().url, "sso.settingsDelete", {}, await login(server().url, "manager"));
    await provider?.stop();
  });

  /** The reasons audited for this organisation's refused sign-ins, newest first. */
  const auditedReasons = async () => {
    const manager = await login(server().url, "manager");
    const page = await ok(server().url, "audit.search", { body: { filter: none, page: 0, quantity: 50 } }, manager);
    return page.entries.map((e) => e.outcome);
  };

  /** A sign-in as `who` whose token endpoint answer the attacker rewrites; the refusal and the reason audited. */
  const refusedWith = async (tamper: TestProvider["tamper"], who = "mallory") => {
    const base = server().url;
    provider.tamper = tamper;
    try {
      const { callback, binding } = await beginAndAuthorize(base, provider, SLUG, who);
      const answer = await call(base, "sso.complete", { body: { callback, binding } });
      return { answer, latest: (await auditedReasons())[0] };
    } finally {
      provider.tamper = undefined;
    }
  };

  const accountsNamed = async (email: string) =>
    (await ok(server().url, "user.all", {}, await login(server().url, "manager"))).filter((u) => u.email === email);

  it("an ID token signed with another key than the provider's is refused and audited", async () => {
    const { answer, latest } = await refusedWith((t) => provider.resign(t, "attacker"));
    expect([answer.status, answer.responseType]).toEqual([401, "invalid_credentials"]);
    expect(answer.error?.message).toMatch(/not signed with its keys/);
    expect(latest).toBe("id_token_signature");
    expect(await accountsNamed("mallory@hospital.example")).toEqual([]);
  });

  it("an expired ID token, though the provider signed it, is refused and audited", async () => {
    const past = Math.floor(Date.now() / 1000) - 600;
    const { answer, latest } = await refusedWith((t) => provider.resign(t, "provider", (c) => ({ ...c, iat: past - 3600, exp: past })));
    expect(answer.status).toBe(401);
    expect(answer.error?.message).toMatch(/has expired/);
    expect(latest).toBe("id_token_expired");
  });

  it("an ID token for another audience is refused and audited", async () => {
    const { answer, latest } = await refusedWith((t) => provider.resign(t, "provider", (c) => ({ ...c, aud: "another-application" })));
    expect(answer.status).toBe(401);
    expect(answer.error?.message).toMatch(/issued for another application/);
    expect(latest).toBe("id_token_audience");
  });

  it("an ID token from another issuer is refused and audited", async () => {
    const { answer, latest } = await refusedWith((t) =>
      provider.resign(t, "provider", (c) => ({ ...c, iss: "https://idp.attacker.example" })),
    );
    expect(answer.status).toBe(401);
    expect(answer.error?.message).toMatch(/another issuer/);
    expect(latest).toBe("id_token_issuer");
  });

  it("a replayed state (the same callback twice, or in another browser) is refused and audited", async () => {
    const base = server().url;
    const { callback, binding } = await beginAndAuthorize(base, provider, SLUG, "mallory");
    expect((await call(base, "sso.complete", { body: { callback, binding } })).status).toBe(200);
    const again = await call(base, "sso.complete", { body: { callback, binding } });
    expect([again.status, again.error?.message]).toEqual([401, "This sign-in has been used already; sign in again."]);
    expect((await auditedReasons())[0]).toBe("state_replayed");
    // A victim's callback completed by the attacker's browser (no binding): refused, and the flow is spent.
    const victim = await beginAndAuthorize(base, provider, SLUG, "mallory");
    const stolen = await call(base, "sso.complete", { body: { callback: victim.callback, binding: "attackers-browser" } });
    expect([stolen.status, stolen.error?.message]).toEqual([
      401,
      "This sign-in was begun in another browser; sign in again from this one.",
    ]);
    expect((await auditedReasons())[0]).toBe("binding");
    expect((await call(base, "sso.complete", { body: { callback: victim.callback, binding: victim.binding } })).status).toBe(401);
  });

  it("an ID token replayed into another sign-in (its nonce is the earlier one's) is refused and audited", async () => {
    let captured: string | undefined;
    provider.tamper = async (t) => ((captured = t), t);
    const base = server().url;
    const first = await beginAndAuthorize(base, provider, SLUG, "mallory");
    expect((await call(base, "sso.complete", { body: first })).status).toBe(200);
    const { answer, latest } = await refusedWith(async () => captured!);
    expect(answer.status).toBe(401);
    expect(answer.error?.message).toMatch(/nonce does not match/);
    expect(latest).toBe("id_token_nonce");
  });

  it("a person whose groups map to no role is refused with the reason, gets no account, and is audited", async () => {
    const { answer, latest } = await refusedWith(undefined, "visitor");
    expect([answer.status, answer.responseType]).toEqual([403, "forbidden"]);
    expect(answer.error?.message).toBe(
      "None of your identity provider's 'groups' values grants a role in Isopter. Ask your administrator to grant you access.",
    );
    expect(latest).toBe("no_role");
    expect(await accountsNamed("visitor@hospital.example")).toEqual([]);
  });
};
