import { randomBytes } from "node:crypto";

// Recovery codes (issue 33 item 2): ten single-use codes, shown once when the second factor is confirmed. Each is 10
// base32 characters (50 random bits) shown as "xxxxx-xxxxx"; they are stored keyed-hashed (secret-box.ts) and tried
// under the same five-wrong-tries limit as the codes, so 50 bits are ample (our design: short enough to type).

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

const newCode = (): string => {
  const bytes = randomBytes(10);
  let text = "";
  for (const b of bytes) text += ALPHABET[b & 31];
  return `${text.slice(0, 5)}-${text.slice(5)}`;
};

/** Ten different codes. */
export const newRecoveryCodes = (): string[] => {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  return [...codes];
};

/** A code as typed (any case, spaces or dashes) in the form that is hashed. */
export const normaliseRecoveryCode = (typed: string): string => typed.toLowerCase().replace(/[\s-]/g, "");

/** Whether a typed answer looks like a recovery code rather than a six-digit TOTP code. */
export const looksLikeRecoveryCode = (typed: string): boolean => /^[a-z2-7]{10}$/.test(normaliseRecoveryCode(typed));
