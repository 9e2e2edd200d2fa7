import * as oidc from "openid-client";
import type { SsoSettingsRow } from "../../store/sso.ts";

// Isopter as an OpenID Connect relying party (OpenID Connect Core 1.0 §3.1, the authorization code flow; RFC 7636,
// PKCE with S256; Discovery 1.0; RP-Initiated Logout 1.0), through openid-client (panva, MIT): discovery of the
// provider's endpoints and keys, the code exchange and the ID token checks (iss, aud, azp, exp, iat, nonce) and, with
// enableNonRepudiationChecks, its signature against the provider's JWKS. Core §3.1.3.7 lets a client skip the
// signature when the token came straight over TLS; we check it anyway, so a token altered on the way or minted with
// another key is refused whatever carried it.

/** How long discovery may take before the provider counts as down (seconds). */
const TIMEOUT_S = 5;

export class ProviderDown extends Error {}

/** The provider's configuration for this organisation's client; `nowMs` is the server's clock (tests move it). */
export const discover = async (s: SsoSettingsRow, clientSecret: string | undefined, nowMs: number): Promise<oidc.Configuration> => {
  const issuer = new URL(s.issuer);
  const execute = [oidc.enableNonRepudiationChecks, ...(issuer.protocol === "http:" ? [oidc.allowInsecureRequests] : [])];
  try {
    return await oidc.discovery(
      issuer,
      s.clientId,
      { [oidc.clockSkew]: Math.round((nowMs - Date.now()) / 1000) },
      clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(),
      { execute, timeout: TIMEOUT_S },
    );
  } catch (e) {
    throw new ProviderDown(`${s.displayName} (${s.issuer}) does not answer: ${(e as Error).message}`);
  }
};

export interface AuthorizationRequest {
  readonly url: string;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

export const authorizationRequest = async (
  config: oidc.Configuration,
  redirectUri: string,
  claim: string,
): Promise<AuthorizationRequest> => {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  // The role claim's name as a scope too: Keycloak and oidc-provider release "groups" by scope; others ignore it.
  const scope = ["openid", "email", "profile", ...(/^[A-Za-z0-9_.-]+$/.test(claim) ? [claim] : [])].join(" ");
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  return { url: url.href, state, nonce, codeVerifier };
};

export type Refusal =
  | "id_token_signature"
  | "id_token_expired"
  | "id_token_audience"
  | "id_token_issuer"
  | "id_token_nonce"
  | "provider_refused"
  | "code_refused"
  | "answer_invalid";

export class SignInRefused extends Error {
  constructor(
    readonly reason: Refusal,
    message: string,
  ) {
    super(message);
  }
}

/** Why openid-client refused, as one of our reasons: its ClientError carries oauth4webapi's error as `cause`, whose
 * own `cause.claim` names the claim that failed. */
const reasonOf = (e: unknown): Refusal => {
  const outer = e as { code?: string; cause?: { message?: string; cause?: { claim?: string } } };
  const claim = outer.cause?.cause?.claim;
  const detail = outer.cause?.message ?? "";
  if (outer.code === "OAUTH_JWT_TIMESTAMP_CHECK_FAILED") return claim === "exp" ? "id_token_expired" : "answer_invalid";
  if (outer.code === "OAUTH_JWT_CLAIM_COMPARISON_FAILED")
    return claim === "aud" || claim === "azp"
      ? "id_token_audience"
      : claim === "iss"
        ? "id_token_issuer"
        : claim === "nonce"
          ? "id_token_nonce"
          : "answer_invalid";
  if (outer.code === "OAUTH_KEY_SELECTION_FAILED" || /signature verification failed/i.test(detail)) return "id_token_signature";
  if (outer.code === "OAUTH_AUTHORIZATION_RESPONSE_ERROR") return "provider_refused";
  if (outer.code === "OAUTH_RESPONSE_BODY_ERROR") return "code_refused";
  return "answer_invalid";
};

/** Exchanges the code of the callback for tokens and checks the ID token; refused with a reason otherwise. */
export const exchangeCode = async (
  config: oidc.Configuration,
  callbackUrl: URL,
  flow: { state: string; nonce: string; codeVerifier: string },
): Promise<{ idToken: string; claims: oidc.IDToken }> => {
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!tokens.id_token || !claims) throw new SignInRefused("answer_invalid", "the provider answered without an ID token");
    return { idToken: tokens.id_token, claims };
  } catch (e) {
    if (e instanceof SignInRefused) throw e;
    if (e instanceof Error && /fetch failed|timed? ?out|ECONNREFUSED|aborted/i.test(`${e.message} ${String(e.cause ?? "")}`))
      throw new ProviderDown((e as Error).message);
    throw new SignInRefused(reasonOf(e), (e as Error).message);
  }
};

/** The provider's end-session URL for this ID token (RP-Initiated Logout 1.0), or null when it offers none. */
export const endSessionUrl = (endpoint: string | null, idToken: string, postLogoutRedirectUri: string): string | null => {
  if (!endpoint) return null;
  const url = new URL(endpoint);
  url.searchParams.set("id_token_hint", idToken);
  url.searchParams.set("post_logout_redirect_uri", postLogoutRedirectUri);
  return url.href;
};
