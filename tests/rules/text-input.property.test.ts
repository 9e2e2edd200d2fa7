import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAllowedTextInput } from "../../core/rules/text-input.ts";

// "Text inputs: only letters, digits, comma, space, hyphen, underscore" (accounts seed §5): the rule accepts exactly
// the strings made of that alphabet.
const letters = [..."abcXYZéüßøåñçœŁžÆÐÞ日本語中文한국어ΩλΔПриветשלוםمرحباअआकिीẞǅ"];
const digits = [..."0123456789٠١٢३४"];
const punctuation = [",", " ", "-", "_"];
const forbidden = [..."!\"#$%&'()*+./:;<=>?@[\\]^`{|}~\t\n\r\u00a0\u2013\u2014€£©®°·…“”‘’👁😀"];

const alphabetChar = fc.constantFrom(...letters, ...digits, ...punctuation, "e\u0301");
const alphabetString = fc.array(alphabetChar, { maxLength: 30 }).map((cs) => cs.join(""));

/** Per code point, independently of the rule's regular expression. */
const inAlphabet = (ch: string): boolean => punctuation.includes(ch) || /^\p{L}$/u.test(ch) || /^\p{M}$/u.test(ch) || /^\p{Nd}$/u.test(ch);

describe("the text-input rule accepts exactly its alphabet (property)", () => {
  it("every string of letters, digits, comma, space, hyphen and underscore passes", () => {
    fc.assert(
      fc.property(alphabetString, (s) => {
        expect(isAllowedTextInput(s)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("any string with one character outside the alphabet fails", () => {
    fc.assert(
      fc.property(alphabetString, fc.constantFrom(...forbidden), alphabetString, (a, bad, b) => {
        expect(isAllowedTextInput(a + bad + b)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("on arbitrary Unicode, accepts a string exactly when each of its characters is in the alphabet", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 20 }), fc.string({ unit: "binary", maxLength: 20 }), (g, u) => {
        for (const s of [g, u]) expect(isAllowedTextInput(s)).toBe([...s].every(inAlphabet));
      }),
      { numRuns: 300 },
    );
  });
});
