import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { hashPassword, verifyPassword } from "../../simulator/server/auth/password.ts";
import { tokenSigner, type TokenClaims } from "../../simulator/server/auth/token.ts";

// The server's auth pieces on their own: scrypt password hashes, HMAC-signed tokens ("Access-token payload: role,
// username, email; carries an expiry time", accounts §3). Sessions and attempt limits live in the database: the
// attacker suite (tests/server/attacker/) plays them against the running server.

const claims = (exp: number): TokenClaims => ({
  kind: "access",
  sub: "u1",
  organisationId: "o1",
  role: "manager",
  username: "manager",
  email: "m@x.test",
  sid: "s1",
  exp,
});

describe("auth", () => {
  it("scrypt hashes verify the password they were made from and nothing else", async () => {
    const hash = await hashPassword("Secret-Pass-1");
    expect(hash.startsWith("scrypt$")).toBe(true);
    expect(await verifyPassword("Secret-Pass-1", hash)).toBe(true);
    expect(await verifyPassword("Secret-Pass-2", hash)).toBe(false);
    expect(await verifyPassword("Secret-Pass-1", null)).toBe(false);
    expect(await verifyPassword("Secret-Pass-1", "plain")).toBe(false);
    expect(await hashPassword("Secret-Pass-1")).not.toBe(hash); // salted
  });

  it("a signed token carries role, username, email and expiry; it is refused when expired, of another kind or tampered with", () => {
    const signer = tokenSigner("secret");
    const now = 1_000_000_000_000;
    const token = signer.sign(claims(now / 1000 + 60));
    expect(token.split(".")).toHaveLength(3);
    const ok = signer.verify(token, "access", now);
    expect(ok.ok && ok.claims).toMatchObject({ role: "manager", username: "manager", email: "m@x.test" });
    expect(signer.verify(token, "access", now + 61_000)).toEqual({ ok: false, reason: "token_expired" });
    expect(signer.verify(token, "reset", now)).toEqual({ ok: false, reason: "token_verification_error" });
    expect(tokenSigner("other").verify(token, "access", now)).toEqual({ ok: false, reason: "token_verification_error" });
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom(..."abcXYZ019-_"), (at, ch) => {
        const tampered = token.slice(0, at) + ch + token.slice(at + 1);
        fc.pre(tampered !== token);
        expect(signer.verify(tampered, "access", now).ok).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
