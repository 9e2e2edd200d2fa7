import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// Second-factor secrets at rest (issue 33 item 2). A TOTP secret must be readable by the server (it computes the
// codes), so it cannot be hashed: it is sealed with AES-256-GCM under a key the database does not hold, so a copy of
// the database (a backup, a reader of the tables) cannot make codes. Recovery codes are one-way: an HMAC-SHA-256
// under a second key derived from the same material (a plain hash of a 50-bit code could be searched offline).
//
// The key material (our design): ISOPTER_SECRETS_KEY when set (every process of a cluster sets the same), else a
// random key in DATA_DIR/secret-key (mode 0600), made at first start; a server started without either (the tests'
// servers) derives it from the database's token secret, which protects nothing and is said so at start.

export interface SecretKeys {
  readonly seal: Buffer;
  readonly pepper: Buffer;
}

const derive = (material: string, info: string) => Buffer.from(hkdfSync("sha256", material, "isopter", info, 32));

/** The keys from their material (RFC 5869 HKDF-SHA-256, one key per use). */
export const secretKeys = (material: string): SecretKeys => ({
  seal: derive(material, "second-factor secrets"),
  pepper: derive(material, "recovery codes"),
});

const VERSION = "v1";

/** AES-256-GCM with a fresh 96-bit nonce: "v1.<nonce>.<ciphertext><tag>" in base64url. */
export const sealSecret = (keys: SecretKeys, secret: Buffer): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keys.seal, iv);
  const body = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
  return [VERSION, iv.toString("base64url"), body.toString("base64url")].join(".");
};

/** The secret, or undefined when the text was not sealed with these keys or was changed. */
export const openSecret = (keys: SecretKeys, sealed: string): Buffer | undefined => {
  const [version, iv, body] = sealed.split(".");
  if (version !== VERSION || !iv || !body) return undefined;
  const bytes = Buffer.from(body, "base64url");
  if (bytes.length < 16) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keys.seal, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
  } catch {
    return undefined;
  }
};

/** What is stored of a recovery code (normalised first, recovery-codes.ts). */
export const recoveryCodeHash = (keys: SecretKeys, normalised: string): string =>
  createHmac("sha256", keys.pepper).update(normalised).digest("base64url");

/** The key material for `npm start`: ISOPTER_SECRETS_KEY (at least 32 characters), else DATA_DIR/secret-key. */
export const startKeyMaterial = (env: string | undefined, dataDir: string): string => {
  const given = env?.trim();
  if (given) {
    if (given.length < 32) throw new Error("ISOPTER_SECRETS_KEY must be at least 32 characters (for example 32 random bytes in base64)");
    return given;
  }
  const file = join(dataDir, "secret-key");
  if (!existsSync(file)) {
    // Written whole, then linked into place: processes starting together (a cluster on one DATA_DIR) agree on one key.
    mkdirSync(dataDir, { recursive: true });
    const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(draft, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    } finally {
      unlinkSync(draft);
    }
  }
  chmodSync(file, 0o600);
  const material = readFileSync(file, "utf8").trim();
  if (material.length < 32)
    throw new Error(`${file} holds no key: restore it from the backup, or remove it to make a new one (sealed secrets are then lost)`);
  return material;
};
