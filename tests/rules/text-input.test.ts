import { describe, expect, it } from "vitest";
import { isAllowedTextInput, validateTextInput } from "../../core/rules/text-input.ts";

// "Text inputs: only letters, digits, comma, space, hyphen, underscore; otherwise "Special characters are not
//  allowed."" (accounts seed §5; scheduling seed §5)
describe("the text-input character rule", () => {
  it.each(["Anna", "Zoë Brontë", "José-María", "Łukasz_2", "O Neil, Jr", "日本語", "Ωμέγα", "Привет", "12345", "", "e\u0301"])(
    "accepts %j",
    (v) => {
      expect(isAllowedTextInput(v)).toBe(true);
      expect(validateTextInput(v)).toBeUndefined();
    },
  );
  it.each(["O'Neil", "a.b", "a@b", "x/y", "50%", "tab\there", "new\nline", "<script>", "a;b", "emoji👁", "a+b", "(x)"])(
    "rejects %j with 'Special characters are not allowed.'",
    (v) => {
      expect(isAllowedTextInput(v)).toBe(false);
      expect(validateTextInput(v)).toEqual({ key: "specialCharacters", text: "Special characters are not allowed." });
    },
  );
});
