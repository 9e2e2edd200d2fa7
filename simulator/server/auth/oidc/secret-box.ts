import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { SecretKeys } from "../secret-box.ts";

// The organisations' OpenID Connect client secrets at rest (issue 33 item 1). Sealed with AES-256-GCM under a key the
// database does not hold: derived (RFC 5869 HKDF-SHA-256) from the server's secret keys (auth/secret-box.ts:
// ISOPTER_SECRET_KEY or DATA_DIR/secret-key), a key of its own so the second factor's and ours never share one.
// The organisation's id is the additional data: a database reader or a backup holds ciphertext it cannot use, and a
// sealed secret copied into another organisation's row does not open there. Stored as "v1.<iv>.<ciphertext>.<tag>".

const VERSION = "v1";

export const ssoSecretBox = (keys: SecretKeys) => {
  const key = Buffer.from(hkdfSync("sha256", keys.seal, "isopter", "sso client secrets", 32));
  return {
    seal(plain: string, organisationId: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(organisationId));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [VERSION, iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
    },
    /** The plain text, or undefined when the sealed text is not ours (another key, another organisation, altered). */
    open(sealed: string, organisationId: string): string | undefined {
      const [version, iv, body, tag] = sealed.split(".");
      if (version !== VERSION || !iv || body === undefined || !tag) return undefined;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAAD(Buffer.from(organisationId));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        return undefined;
      }
    },
  };
};
