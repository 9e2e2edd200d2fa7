import { afterAll, beforeAll, expect, it } from "vitest";
import type { Endpoint } from "../../core/model/contract/index.ts";
import { startTestProvider, type TestProvider } from "../support/oidc-provider.ts";
import type { call, ok, raw } from "./harness.ts";
import { ssoBody } from "./sso-helpers.ts";
import { SSO_CALLBACK_PATH, ssoLoginPath } from "../../core/model/single-sign-on.ts";

// The contract suite's part for single sign-on (issue 33 item 1): every sso call with a real provider, the schema's
// refusals (an issuer that is not https, a login link's name) and the answers decoded with the contract.

interface Calls {
  c<E extends Endpoint>(name: E, input: Parameters<typeof call<E>>[2], token?: string): ReturnType<typeof call<E>>;
  o<E extends Endpoint>(name: E, input: Parameters<typeof ok<E>>[2], token?: string): ReturnType<typeof ok<E>>;
  base(): string;
  /** The manager's raw request (bodies the contract's encoder would refuse to send). */
  raw(method: string, path: string, body?: unknown): ReturnType<typeof raw>;
}

export const ssoContractCases = ({ c, o, base, raw }: Calls) => {
  let provider: TestProvider;
  beforeAll(async () => {
    provider = await startTestProvider();
    provider.people.set("nina", { email: "nina@contract.example", groups: ["isopter-staff"] });
  });
  afterAll(() => provider?.stop());

  it("sso: settings checked by the schema; the flow through a real provider; logout with the provider's URL; off again", async () => {
    expect(await o("sso.settings", {})).toBeNull();
    const badIssuer = await raw("PUT", "sso/settings", { ...ssoBody(provider, "contract-clinic"), issuer: "http://idp.example" });
    expect([badIssuer.status, (badIssuer.json.data as { field?: string }).field]).toEqual([400, "body.issuer"]);
    const badSlug = await raw("PUT", "sso/settings", ssoBody(provider, "Contract Clinic"));
    expect([badSlug.status, (badSlug.json.data as { field?: string }).field]).toEqual([400, "body.slug"]);
    provider.allowRedirects(`${base()}${SSO_CALLBACK_PATH}`, `${base()}${ssoLoginPath("contract-clinic")}`);
    const saved = await o("sso.settingsUpdate", { body: ssoBody(provider, "contract-clinic") });
    expect(saved).toMatchObject({ slug: "contract-clinic", clientSecretSet: true, roleClaim: "groups" });
    expect(await o("sso.loginOptions", { query: { organisation: "contract-clinic" } }, undefined)).toEqual({
      organisationName: expect.any(String),
      displayName: "Hospital Login",
      passwordLogin: true,
      providerReachable: true,
    });
    const begun = await o("sso.begin", { body: { organisation: "contract-clinic", redirectOrigin: new URL(base()).origin } }, undefined);
    const badOrigin = await c("sso.begin", { body: { organisation: "contract-clinic", redirectOrigin: "https://elsewhere.example" } });
    expect([badOrigin.status, badOrigin.error?.field]).toEqual([400, "body.redirectOrigin"]);
    const callback = await provider.signIn(begun.authorizationUrl, "nina");
    const done = await c("sso.complete", { body: { callback, binding: begun.binding } }, undefined);
    expect(done.status).toBe(200);
    expect(done.accessToken).toBe(done.data.accessToken);
    const out = await o("sso.logout", {}, done.data.accessToken);
    expect(out.endSessionUrl?.startsWith(provider.issuer)).toBe(true);
    await o("sso.settingsDelete", {});
    expect(await o("sso.settings", {})).toBeNull();
    expect((await c("sso.loginOptions", { query: { organisation: "contract-clinic" } }, undefined)).status).toBe(404);
  });
};
