import type { SsoSettingsBody } from "../../core/model/single-sign-on.ts";
import { SSO_CALLBACK_PATH, ssoLoginPath } from "../../core/model/single-sign-on.ts";
import type { TestProvider } from "../support/oidc-provider.ts";
import { call, ok } from "./harness.ts";

// Single sign-on in the server tests (issue 33 item 1): an organisation's provider set through the contract, and a
// sign-in driven as a browser would: begin, the provider's login form, the callback's query sent to complete.

export const ROLE_MAP = { user: ["isopter-staff"], manager: ["isopter-managers"], admin: ["isopter-admins"] };

export const ssoBody = (provider: TestProvider, slug: string, change: Partial<SsoSettingsBody> = {}): SsoSettingsBody => ({
  slug,
  displayName: "Hospital Login",
  issuer: provider.issuer,
  clientId: provider.clientId,
  clientSecret: provider.clientSecret,
  roleClaim: "groups",
  roleMap: ROLE_MAP,
  passwordLogin: true,
  ...change,
});

/** Sets the organisation's provider as its manager and registers the server's URIs at the provider. */
export const configureSso = async (
  base: string,
  manager: string,
  provider: TestProvider,
  slug: string,
  change: Partial<SsoSettingsBody> = {},
) => {
  provider.allowRedirects(`${base}${SSO_CALLBACK_PATH}`, `${base}${ssoLoginPath(slug)}`);
  return ok(base, "sso.settingsUpdate", { body: ssoBody(provider, slug, change) }, manager);
};

/** Begins a sign-in at the organisation's login link; the provider's callback query and the browser's binding. */
export const beginAndAuthorize = async (base: string, provider: TestProvider, slug: string, login: string, changeUrl = (u: URL) => u) => {
  const begun = await ok(base, "sso.begin", { body: { organisation: slug, redirectOrigin: new URL(base).origin } });
  const callback = await provider.signIn(changeUrl(new URL(begun.authorizationUrl)).href, login);
  return { callback, binding: begun.binding, authorizationUrl: begun.authorizationUrl };
};

/** A whole sign-in; the answer of sso.complete. */
export const signInVia = async (base: string, provider: TestProvider, slug: string, login: string) => {
  const { callback, binding } = await beginAndAuthorize(base, provider, slug, login);
  return call(base, "sso.complete", { body: { callback, binding } });
};
