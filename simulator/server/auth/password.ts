import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

// Password hashes: scrypt with a random salt, stored as "scrypt$N$r$p$salt$hash" (base64url) so parameters can change.

const N = 16384,
  r = 8,
  p = 1,
  keyLength = 32;

const derive = (password: string, salt: Buffer, n: number, rr: number, pp: number) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, keyLength, { N: n, r: rr, p: pp, maxmem: 64 * 1024 * 1024 }, (e, key) => (e ? reject(e) : resolve(key))),
  );

export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, r, p);
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
};

export const verifyPassword = async (password: string, stored: string | null): Promise<boolean> => {
  const parts = stored?.split("$") ?? [];
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, rr, pp, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, "base64url");
  const key = await derive(password, Buffer.from(salt, "base64url"), Number(n), Number(rr), Number(pp));
  return key.length === expected.length && timingSafeEqual(key, expected);
};

/** A hash of a password nobody knows: checking a login for an unknown or inactive account against it costs the same
 * time as a wrong password (no account enumeration by timing). */
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword(randomBytes(24).toString("base64url")));

/** True when the stored hash's salt is shared with another hash (made before every hash got its own). */
export const saltOf = (stored: string | null): string | undefined => stored?.split("$")[4];
