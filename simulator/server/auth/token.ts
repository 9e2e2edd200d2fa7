import { createHmac, timingSafeEqual } from "node:crypto";
import type { Role } from "../../../core/model/enums.ts";

// Signed tokens: three dotted base64url parts (header.payload.signature, HMAC-SHA256), the "three-part dotted token"
// the accounts seed mentions. The access-token payload carries role, username and email with an expiry (accounts §3);
// we add the user id, organisation, session id and a `kind` so a reset or invitation token is never an access token.

/** second-factor: a login whose password was right, waiting for its second step (auth/second-factor.ts). */
export type TokenKind = "access" | "reset" | "invitation" | "second-factor";

export interface TokenClaims {
  readonly kind: TokenKind;
  readonly sub: string; // user id
  readonly organisationId: string;
  readonly role: Role;
  readonly username: string;
  readonly email: string;
  /** Login session (access tokens): a newer login of the same user ends older sessions on the live socket. */
  readonly sid?: string;
  /** Reset tokens: the reset row; invitation tokens: the invitation id; second-factor tokens: the step (verify, enrol) and which password it followed. */
  readonly ref?: string;
  /** Expiry, seconds since epoch. */
  readonly exp: number;
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: "token_expired" | "token_verification_error" };

const header = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");

export const tokenSigner = (secret: string) => {
  const sign = (text: string) => createHmac("sha256", secret).update(text).digest();
  return {
    sign(claims: TokenClaims): string {
      const body = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
      return `${body}.${sign(body).toString("base64url")}`;
    },
    verify(token: string, kind: TokenKind, nowMs: number): TokenCheck {
      const parts = token.split(".");
      if (parts.length !== 3) return { ok: false, reason: "token_verification_error" };
      const [h, p, s] = parts as [string, string, string];
      // Compare the text, not decoded bytes: base64url ignores a last character's spare bits.
      const expected = Buffer.from(sign(`${h}.${p}`).toString("base64url"));
      const given = Buffer.from(s);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "token_verification_error" };
      let claims: TokenClaims;
      try {
        claims = JSON.parse(Buffer.from(p, "base64url").toString("utf8")) as TokenClaims;
      } catch {
        return { ok: false, reason: "token_verification_error" };
      }
      if (claims.kind !== kind) return { ok: false, reason: "token_verification_error" };
      if (typeof claims.exp !== "number" || claims.exp * 1000 <= nowMs) return { ok: false, reason: "token_expired" };
      return { ok: true, claims };
    },
  };
};
export type TokenSigner = ReturnType<typeof tokenSigner>;
