import { Schema } from "effect";
import { Role } from "../enums.ts";
import { SsoBeginSchema, SsoLoginOptionsSchema, SsoSettingsBodySchema, SsoSettingsSchema, SsoSlugSchema } from "../single-sign-on.ts";
import { commonErrors, endpoint } from "./endpoint.ts";
import { Empty } from "./shared.ts";

// Single sign-on over OpenID Connect (issue 33 item 1; our design): the organisation's provider set by a manager or
// an administrator, the login page's options for /login/<slug>, and the authorization code flow with PKCE in two
// calls (begin: where to send the browser; complete: the provider's answer, as the callback page received it).

const managers = [Role.Manager, Role.Admin];

export const ssoSettings = endpoint({
  name: "sso.settings",
  method: "GET",
  path: "sso/settings",
  response: Schema.NullOr(SsoSettingsSchema),
  errors: [...commonErrors, "forbidden"],
  auth: "bearer",
  roles: managers,
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "the organisation's identity provider (null when none is set); the client secret is never answered",
});

export const ssoSettingsUpdate = endpoint({
  name: "sso.settingsUpdate",
  method: "PUT",
  path: "sso/settings",
  body: SsoSettingsBodySchema,
  response: SsoSettingsSchema,
  errors: [...commonErrors, "forbidden", "conflict"],
  auth: "bearer",
  roles: managers,
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "sets the organisation's identity provider; clientSecret null keeps the stored one; conflict: the login link's name is another organisation's",
});

export const ssoSettingsDelete = endpoint({
  name: "sso.settingsDelete",
  method: "DELETE",
  path: "sso/settings",
  response: Empty,
  errors: [...commonErrors, "forbidden"],
  auth: "bearer",
  roles: managers,
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "turns single sign-on off (password sign-in again for everyone); linked accounts stay",
});

export const ssoLoginOptions = endpoint({
  name: "sso.loginOptions",
  method: "GET",
  path: "sso/login_options",
  query: Schema.Struct({ organisation: SsoSlugSchema }),
  response: SsoLoginOptionsSchema,
  errors: [...commonErrors, "not_found"],
  auth: "none",
  carriesAccessToken: false,
  source: "our design",
  ourDesign: "what /login/<slug> offers: the provider's name, whether passwords are allowed, whether the provider answers now",
});

export const ssoBegin = endpoint({
  name: "sso.begin",
  method: "POST",
  path: "sso/begin",
  body: Schema.Struct({ organisation: SsoSlugSchema, redirectOrigin: Schema.String }),
  response: SsoBeginSchema,
  errors: [...commonErrors, "not_found"],
  auth: "none",
  carriesAccessToken: false,
  source: "our design",
  ourDesign:
    "starts an authorization code flow with PKCE (S256), state and nonce: answers the provider's authorization URL and the browser's binding; unavailable when the provider does not answer",
});

export const ssoComplete = endpoint({
  name: "sso.complete",
  method: "POST",
  path: "sso/complete",
  body: Schema.Struct({ callback: Schema.String.check(Schema.isMaxLength(8000)), binding: Schema.String }),
  response: Schema.Struct({ accessToken: Schema.String }),
  errors: [...commonErrors, "invalid_credentials", "forbidden"],
  auth: "none",
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "callback: the query string the provider sent the browser back with; exchanges the code, checks the ID token (signature by the provider's keys, iss, aud, exp, nonce) and opens a session like login. invalid_credentials: a forged, expired or replayed answer; forbidden: no role granted",
});

export const ssoLogout = endpoint({
  name: "sso.logout",
  method: "POST",
  path: "sso/logout",
  response: Schema.Struct({ endSessionUrl: Schema.NullOr(Schema.String) }),
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: false,
  source: "our design",
  ourDesign:
    "logout for a session opened through the provider: ends it as logout does and answers the provider's end-session URL (null when it offers none)",
});
