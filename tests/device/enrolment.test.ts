import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatPairingCode,
  isValidSerial,
  looksLikeCredential,
  normalisePairingCode,
  PAIRING_CODE_ALPHABET,
  pairingCodeFrom,
} from "../../core/device/enrolment.ts";

// The shapes of the secrets a headset proves itself with (issue 15, point 1: "a one-time pairing code the headset
// exchanges for [a credential]"): a code is typed by hand, so any case and spacing of it is the same code.

const bytes = fc.uint8Array({ minLength: 10, maxLength: 10 });

describe("pairing codes", () => {
  it("are 10 characters of the look-alike-free alphabet, shown as XXXXX-XXXXX", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const code = pairingCodeFrom(b);
        expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
        for (const ch of code.replace("-", "")) expect(PAIRING_CODE_ALPHABET).toContain(ch);
        expect(code).not.toMatch(/[ILOU01]/);
      }),
    );
  });

  it("typed in any case, with spaces or dashes anywhere, normalise to the same code", () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.constantFrom(" ", "-", "  "), { minLength: 10, maxLength: 10 }), fc.boolean(), (b, gaps, lower) => {
        const code = pairingCodeFrom(b);
        const plain = code.replace("-", "");
        const typed = [...plain].map((ch, i) => (lower ? ch.toLowerCase() : ch) + gaps[i]).join("");
        expect(normalisePairingCode(typed)).toBe(plain);
        expect(formatPairingCode(typed)).toBe(code);
      }),
    );
  });

  it("each character carries its byte's choice: byte strings that pick another character somewhere give another code", () => {
    fc.assert(
      fc.property(bytes, bytes, (a, b) => {
        const differ = [...a].some((x, k) => x % PAIRING_CODE_ALPHABET.length !== b[k]! % PAIRING_CODE_ALPHABET.length);
        expect(pairingCodeFrom(a) !== pairingCodeFrom(b)).toBe(differ);
      }),
    );
    expect(looksLikeCredential("isd1.abc")).toBe(true);
    expect(looksLikeCredential("ABCDE-FGHJK")).toBe(false);
  });
});

describe("serials", () => {
  it("accept what is printed on headsets and refuse spaces, slashes and empty or over-long ones", () => {
    for (const sn of ["VR-0001", "VR-A001", "SN_123.4", "a"]) expect(isValidSerial(sn)).toBe(true);
    for (const sn of ["", " VR-1", "VR 1", "VR/1", "-VR", "x".repeat(65), "VR-1\n"]) expect(isValidSerial(sn)).toBe(false);
  });
});
