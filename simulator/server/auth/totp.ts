import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// One-time passwords, written on node:crypto.
// HOTP: D. M'Raihi, M. Bellare, F. Hoornaert, D. Naccache, O. Ranen, "HOTP: An HMAC-Based One-Time Password
// Algorithm", RFC 4226, IETF, 2005: "HOTP(K,C) = Truncate(HMAC-SHA-1(K,C))", C the 8-byte big-endian counter, and the
// dynamic truncation of §5.3 (offset = low 4 bits of the last byte; 31 bits from there; modulo 10^Digit).
// TOTP: D. M'Raihi, S. Machani, M. Pei, J. Rydell, "TOTP: Time-Based One-Time Password Algorithm", RFC 6238, IETF,
// 2011: "TOTP = HOTP(K, T)", "T = (Current Unix time - T0) / X", with T0 = 0 and X = 30 s (the RFC's defaults).
// Secrets travel to authenticator apps as base32 (RFC 4648 §6) in an otpauth:// URI (the Key Uri Format of Google
// Authenticator, which the apps read: otpauth://totp/ISSUER:ACCOUNT?secret=...&issuer=...).

export type OtpHash = "sha1" | "sha256" | "sha512";

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** RFC 6238 §5.2 recommends "at most one time step" of allowed network delay: we accept the step before and after. */
export const TOTP_WINDOW_STEPS = 1;
/** RFC 4226 §4 R6: the shared secret is at least 128 bits; §4 recommends 160. We use 160 bits (20 bytes). */
const SECRET_BYTES = 20;

/** HOTP value of `counter` under `key` (RFC 4226 §5.3), `digits` long with leading zeros. */
export const hotp = (key: Buffer, counter: number, digits = TOTP_DIGITS, hash: OtpHash = "sha1"): string => {
  const c = Buffer.alloc(8);
  c.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(hash, key).update(c).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
};

/** The time step T of a moment (RFC 6238 §4.2, T0 = 0). */
export const totpStep = (nowMs: number, stepSeconds = TOTP_STEP_SECONDS): number => Math.floor(nowMs / 1000 / stepSeconds);

/** The TOTP value at `nowMs`. */
export const totp = (key: Buffer, nowMs: number, digits = TOTP_DIGITS, hash: OtpHash = "sha1"): string =>
  hotp(key, totpStep(nowMs), digits, hash);

/**
 * The time step whose code `code` is, within the window around now, and later than `lastStep` (a code already used,
 * or one of a step before it, is refused: RFC 6238 §5.2 "the verifier MUST NOT accept the second attempt of the OTP
 * after the successful validation has been issued for the first OTP"). Null when none matches.
 */
export const matchingStep = (key: Buffer, code: string, nowMs: number, lastStep: number | null): number | null => {
  const given = Buffer.from(code.replace(/\s/g, ""));
  if (!/^\d{6}$/.test(given.toString())) return null;
  const now = totpStep(nowMs);
  let found: number | null = null;
  // Every step of the window is compared, so the time taken does not tell which one matched.
  for (let step = now - TOTP_WINDOW_STEPS; step <= now + TOTP_WINDOW_STEPS; step++) {
    const expected = Buffer.from(hotp(key, step));
    if (timingSafeEqual(expected, given) && (lastStep === null || step > lastStep) && found === null) found = step;
  }
  return found;
};

/** A new random shared secret. */
export const newTotpSecret = (): Buffer => randomBytes(SECRET_BYTES);

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 §6 base32, without padding (the Key Uri Format leaves it out). */
export const base32Encode = (bytes: Buffer): string => {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
};

/** Reads base32 (case, spaces and padding ignored); undefined for any other character. */
export const base32Decode = (text: string): Buffer | undefined => {
  const clean = text.toUpperCase().replace(/[\s=]/g, "");
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const v = BASE32.indexOf(ch);
    if (v < 0) return undefined;
    value = ((value << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
};

/** The otpauth:// URI an authenticator app reads (from the QR code or typed): SHA-1, 6 digits, 30 s, as we verify. */
export const otpauthUri = (issuer: string, account: string, secret: Buffer): string => {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  // Spaces as %20, not "+": the Key Uri Format asks for percent-encoding.
  const query = Object.entries({
    secret: base32Encode(secret),
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  })
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("&");
  return `otpauth://totp/${label}?${query}`;
};
