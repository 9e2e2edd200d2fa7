// Headset enrolment: the shapes of the secrets a headset proves itself with (issue 15, point 1). The server makes them
// (with a cryptographic random source) and keeps only their SHA-256; the headset presents one in its hello.
//
// - Device credential: "isd1." + 43 base64url characters (32 random bytes), shown once to the manager or handed to
//   the headset in the `enrolled` frame, presented in every hello after.
// - Pairing code: 10 characters of an alphabet without look-alikes (no I, L, O, U, 0, 1), shown as XXXXX-XXXXX, valid
//   once and for PAIRING_CODE_TTL_MS; about 49 bits, so guessing one online within its hour is hopeless.

export const CREDENTIAL_PREFIX = "isd1.";
export const PAIRING_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";
export const PAIRING_CODE_LENGTH = 10;
export const PAIRING_CODE_TTL_MS = 60 * 60 * 1000;

/** A serial as printed on a headset: 1 to 64 letters, digits, dots, dashes or underscores (ours). */
export const SERIAL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const isValidSerial = (sn: string): boolean => SERIAL_PATTERN.test(sn);

export const looksLikeCredential = (secret: string): boolean => secret.startsWith(CREDENTIAL_PREFIX);

/** The code as typed (any case, spaces or dashes anywhere) in the canonical form that is hashed and compared. */
export const normalisePairingCode = (typed: string): string => typed.toUpperCase().replace(/[\s-]+/g, "");

/** XXXXX-XXXXX for reading aloud or typing on the headset. */
export const formatPairingCode = (code: string): string => {
  const c = normalisePairingCode(code);
  return c.length === PAIRING_CODE_LENGTH ? `${c.slice(0, 5)}-${c.slice(5)}` : c;
};

/** The code made from `PAIRING_CODE_LENGTH` random bytes, each picking a character (`byte % 30`: the first 16
 * characters come up 9 times in 256 rather than 8, which costs well under a bit of the code's strength). */
export const pairingCodeFrom = (bytes: Uint8Array): string =>
  formatPairingCode(
    Array.from(bytes.slice(0, PAIRING_CODE_LENGTH), (b) => PAIRING_CODE_ALPHABET[b % PAIRING_CODE_ALPHABET.length]!).join(""),
  );
