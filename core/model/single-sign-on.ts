import { Schema } from "effect";
import { RoleSchema } from "./enums.ts";

// Single sign-on over OpenID Connect (issue 33 item 1; OpenID Connect Core 1.0 and Discovery 1.0, OpenID Foundation
// 2014): one identity provider per organisation, the claim of its ID token whose values say a person's role, and
// whether the organisation's staff may still sign in with a password.

/** The per-organisation login link /login/<slug>: lower-case letters, digits and hyphens. */
export const SsoSlugSchema = Schema.String.check(
  Schema.isPattern(/^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/, {
    message: "lower-case letters, digits and hyphens (1 to 48), not starting or ending with a hyphen",
  }),
);

/** An issuer is an https URL (Discovery §2); plain http only on the loopback address, for a provider on this machine. */
export const IssuerSchema = Schema.String.check(
  Schema.makeFilter(
    (s: string) => {
      try {
        const u = new URL(s);
        if (u.search || u.hash) return "an issuer URL has no query or fragment";
        return u.protocol === "https:" || (u.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(u.hostname))
          ? undefined
          : "an issuer is an https URL (http only on this machine's loopback address)";
      } catch {
        return "an issuer is a URL such as https://login.hospital.example/realms/staff";
      }
    },
    { expected: "an https issuer URL" },
  ),
);

const Text = (max: number) => Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(max));

/** The claim values that grant each role; a person whose values match several gets the highest. */
export const SsoRoleMapSchema = Schema.Struct({
  user: Schema.Array(Text(200)),
  manager: Schema.Array(Text(200)),
  admin: Schema.Array(Text(200)),
});
export type SsoRoleMap = Schema.Schema.Type<typeof SsoRoleMapSchema>;

/** The settings as a manager reads them: the client secret is never answered, only whether one is stored. */
export const SsoSettingsSchema = Schema.Struct({
  slug: SsoSlugSchema,
  /** The provider's name on the login page ("Sign in with <displayName>"). */
  displayName: Text(80),
  issuer: IssuerSchema,
  clientId: Text(200),
  clientSecretSet: Schema.Boolean,
  /** The ID token claim holding the person's groups or roles (e.g. "groups", "roles"). */
  roleClaim: Text(100),
  roleMap: SsoRoleMapSchema,
  /** False: only administrators may sign in with a password (the way back when the provider is gone). */
  passwordLogin: Schema.Boolean,
});

/** Where the provider sends the browser back (the redirect URI to register at it, on the server's origin). */
export const SSO_CALLBACK_PATH = "/login/sso/callback";
/** The per-organisation login link, also the post-logout redirect URI to register at the provider. */
export const ssoLoginPath = (slug: string) => `/login/${slug}`;
export type SsoSettings = Schema.Schema.Type<typeof SsoSettingsSchema>;

/** What a manager sends: clientSecret null keeps the stored one. */
export const SsoSettingsBodySchema = Schema.Struct({
  slug: SsoSlugSchema,
  displayName: Text(80),
  issuer: IssuerSchema,
  clientId: Text(200),
  clientSecret: Schema.NullOr(Text(500)),
  roleClaim: Text(100),
  roleMap: SsoRoleMapSchema,
  passwordLogin: Schema.Boolean,
});
export type SsoSettingsBody = Schema.Schema.Type<typeof SsoSettingsBodySchema>;

/** What the login page of /login/<slug> shows. */
export const SsoLoginOptionsSchema = Schema.Struct({
  organisationName: Schema.String,
  displayName: Schema.String,
  passwordLogin: Schema.Boolean,
  /** False when the provider's discovery document could not be read just now. */
  providerReachable: Schema.Boolean,
});
export type SsoLoginOptions = Schema.Schema.Type<typeof SsoLoginOptionsSchema>;

export const SsoBeginSchema = Schema.Struct({
  authorizationUrl: Schema.String,
  /** Kept by the browser that began (session storage) and sent back with the callback: a flow completes only there. */
  binding: Schema.String,
});

export const SsoRoleSchema = RoleSchema;
