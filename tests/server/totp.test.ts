import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  base32Decode,
  base32Encode,
  hotp,
  matchingStep,
  newTotpSecret,
  otpauthUri,
  totp,
  totpStep,
} from "../../simulator/server/auth/totp.ts";
import { openSecret, recoveryCodeHash, sealSecret, secretKeys, startKeyMaterial } from "../../simulator/server/auth/secret-box.ts";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newRecoveryCodes, normaliseRecoveryCode } from "../../simulator/server/auth/recovery-codes.ts";

// RFC 4226 (M'Raihi, Bellare, Hoornaert, Naccache, Ranen, 2005) Appendix D and RFC 6238 (M'Raihi, Machani, Pei,
// Rydell, 2011) Appendix B: "The test token shared secret uses the ASCII string value '12345678901234567890'. With
// Time Step X = 30, and the Unix epoch as the initial value to count time steps, where T0 = 0".

const rfcKey = Buffer.from("12345678901234567890");

describe("HOTP (RFC 4226)", () => {
  it("Appendix D: the HOTP values of counts 0 to 9 for the secret '12345678901234567890'", () => {
    const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
    expect(expected.map((_, count) => hotp(rfcKey, count))).toEqual(expected);
  });
});

describe("TOTP (RFC 6238)", () => {
  // Appendix B's table, 8 digits; the SHA-256 and SHA-512 rows use the 32- and 64-byte repetitions of the seed.
  const table: Array<[number, string, string, string]> = [
    [59, "94287082", "46119246", "90693936"],
    [1111111109, "07081804", "68084774", "25091201"],
    [1111111111, "14050471", "67062674", "99943326"],
    [1234567890, "89005924", "91819424", "93441116"],
    [2000000000, "69279037", "90698825", "38618901"],
    [20000000000, "65353130", "77737706", "47863826"],
  ];
  const key256 = Buffer.from("12345678901234567890123456789012");
  const key512 = Buffer.from("1234567890123456789012345678901234567890123456789012345678901234");

  it.each(table)("Appendix B at %i s: %s (SHA1), %s (SHA256), %s (SHA512)", (seconds, sha1, sha256, sha512) => {
    expect(totp(rfcKey, seconds * 1000, 8)).toBe(sha1);
    expect(totp(key256, seconds * 1000, 8, "sha256")).toBe(sha256);
    expect(totp(key512, seconds * 1000, 8, "sha512")).toBe(sha512);
  });

  it("Appendix B's T for 1111111109 s is 0x23523EC (the step count)", () => {
    expect(totpStep(1111111109 * 1000)).toBe(0x23523ec);
  });

  it("a code is accepted one step before and after now (RFC 6238 §5.2), not two", () => {
    const key = newTotpSecret();
    const now = 1_800_000_015_000;
    const step = totpStep(now);
    for (const d of [-1, 0, 1]) expect(matchingStep(key, hotp(key, step + d), now, null)).toBe(step + d);
    for (const d of [-3, -2, 2, 3]) expect(matchingStep(key, hotp(key, step + d), now, null)).toBeNull();
  });

  it("'the verifier MUST NOT accept the second attempt of the OTP': a used step, or one before it, is refused", () => {
    const key = newTotpSecret();
    const now = 1_800_000_015_000;
    const step = totpStep(now);
    const code = hotp(key, step);
    expect(matchingStep(key, code, now, step)).toBeNull();
    expect(matchingStep(key, hotp(key, step - 1), now, step)).toBeNull();
    expect(matchingStep(key, hotp(key, step + 1), now, step)).toBe(step + 1);
    expect(matchingStep(key, code, now, step - 1)).toBe(step);
  });

  it("property: a code of step now+d is accepted exactly when |d| <= 1 and its step is later than the last used", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        fc.integer({ min: 1_000_000_000_000, max: 4_000_000_000_000 }),
        fc.integer({ min: -3, max: 3 }),
        fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined }),
        (bytes, now, d, last) => {
          const key = Buffer.from(bytes);
          const step = totpStep(now);
          const code = hotp(key, step + d);
          // Two steps of the window may share a code (one chance in a million): then the earlier one is taken.
          fc.pre([-1, 0, 1].every((w) => w === d || hotp(key, step + w) !== code));
          const lastStep = last === undefined ? null : step + last;
          const accepted = Math.abs(d) <= 1 && (lastStep === null || step + d > lastStep);
          expect(matchingStep(key, code, now, lastStep)).toBe(accepted ? step + d : null);
        },
      ),
    );
  });

  it("anything but six digits is refused; spaces inside are allowed", () => {
    const key = newTotpSecret();
    const now = 1_800_000_015_000;
    const code = totp(key, now);
    expect(matchingStep(key, `${code.slice(0, 3)} ${code.slice(3)}`, now, null)).toBe(totpStep(now));
    for (const bad of ["", "12345", "1234567", "abcdef", `${code}0`, `-${code.slice(1)}`])
      expect(matchingStep(key, bad, now, null)).toBeNull();
  });

  it("base32 (RFC 4648 §10's vectors, unpadded) round-trips any bytes", () => {
    const vectors: Array<[string, string]> = [
      ["f", "MY"],
      ["fo", "MZXQ"],
      ["foo", "MZXW6"],
      ["foob", "MZXW6YQ"],
      ["fooba", "MZXW6YTB"],
      ["foobar", "MZXW6YTBOI"],
    ];
    for (const [text, encoded] of vectors) expect(base32Encode(Buffer.from(text))).toBe(encoded);
    expect(base32Decode("mzxw 6ytb oi======")?.toString()).toBe("foobar");
    expect(base32Decode("MZ1")).toBeUndefined();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => base32Decode(base32Encode(Buffer.from(bytes)))!.equals(Buffer.from(bytes))),
    );
  });

  it("the otpauth URI names the issuer and account and carries the secret, SHA1, 6 digits and 30 s", () => {
    const key = Buffer.from("12345678901234567890");
    const uri = new URL(otpauthUri("Isopter Demo Eye Clinic", "anna@clinic.test", key));
    expect(uri.protocol).toBe("otpauth:");
    expect([uri.host, decodeURIComponent(uri.pathname)]).toEqual(["totp", "/Isopter Demo Eye Clinic:anna@clinic.test"]);
    expect(uri.search).toContain("issuer=Isopter%20Demo%20Eye%20Clinic");
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
      issuer: "Isopter Demo Eye Clinic",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});

describe("sealed secrets and recovery codes", () => {
  const keys = secretKeys(Buffer.alloc(32, 7).toString("base64"));
  it("a sealed secret opens with its key only, and says nothing of the secret", () => {
    const secret = newTotpSecret();
    const sealed = sealSecret(keys, secret);
    expect(sealed).not.toContain(secret.toString("base64url"));
    expect(sealed).not.toContain(base32Encode(secret));
    expect(openSecret(keys, sealed)?.equals(secret)).toBe(true);
    expect(sealSecret(keys, secret)).not.toBe(sealed); // a fresh nonce each time
    expect(openSecret(secretKeys(Buffer.alloc(32, 8).toString("base64")), sealed)).toBeUndefined();
    // One character of the tag changed: the second-to-last, all of whose bits count (the last may carry unused ones).
    const at = sealed.length - 2;
    const tampered = `${sealed.slice(0, at)}${sealed[at] === "A" ? "B" : "A"}${sealed.slice(at + 1)}`;
    expect(tampered).not.toBe(sealed);
    expect(openSecret(keys, tampered)).toBeUndefined();
  });

  it("ten recovery codes, all different, each read back however it is typed; stored only as a keyed hash", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
      expect(normaliseRecoveryCode(` ${code.toUpperCase().replace("-", " ")} `)).toBe(normaliseRecoveryCode(code));
      expect(recoveryCodeHash(keys, normaliseRecoveryCode(code))).not.toContain(code.replace("-", ""));
    }
    expect(recoveryCodeHash(keys, "abcdefghij")).not.toBe(recoveryCodeHash(secretKeys("another key of ours, long enough"), "abcdefghij"));
  });

  it("npm start's key: ISOPTER_SECRETS_KEY when set (32 characters at least), else one random key kept in DATA_DIR/secret-key (0600)", () => {
    const dir = mkdtempSync(join(tmpdir(), "isopter-key-"));
    expect(() => startKeyMaterial("too short", dir)).toThrow(/at least 32 characters/);
    expect(startKeyMaterial(" a key of ours that is long enough, surely ", dir)).toBe("a key of ours that is long enough, surely");
    const made = startKeyMaterial(undefined, dir);
    expect(made.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(dir, "secret-key")).mode & 0o777).toBe(0o600);
    expect(startKeyMaterial("", dir)).toBe(made);
  });
});
