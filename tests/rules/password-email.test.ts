import { describe, expect, it } from "vitest";
import { canSubmitPasswordForm, isStrongPassword, passwordProblems, validatePasswordForm } from "../../core/rules/password.ts";
import { emailToSend, validateEmailTwice } from "../../core/rules/email.ts";
import { loginCredentials, validateLogin } from "../../core/rules/login.ts";

const keys = (pw: string) => passwordProblems(pw).map((m) => m.key);

// "The general input rule is 8 to 99 characters, no whitespace, with lowercase, uppercase, digit and special
//  character." "the two must match." (accounts seed §5)
describe("password policy (accounts seed §5)", () => {
  it("accepts a password meeting every part", () => {
    expect(isStrongPassword("Abcdef1!")).toBe(true);
    expect(isStrongPassword("Ä" + "b".repeat(95) + "1#")).toBe(true); // 98 characters
  });
  it("'8 to 99 characters'", () => {
    expect(keys("Abcde1!")).toEqual(["passwordLength"]);
    expect(keys("A1!" + "b".repeat(96))).toEqual([]); // 99
    expect(keys("A1!" + "b".repeat(97))).toEqual(["passwordLength"]); // 100
  });
  it("'no whitespace'", () => expect(keys("Abcd ef1!")).toEqual(["passwordWhitespace"]));
  it("'with lowercase'", () => expect(keys("ABCDEF1!")).toEqual(["passwordLowercase"]));
  it("'uppercase'", () => expect(keys("abcdef1!")).toEqual(["passwordUppercase"]));
  it("'digit'", () => expect(keys("Abcdefg!")).toEqual(["passwordDigit"]));
  it("'and special character'", () => expect(keys("Abcdefg1")).toEqual(["passwordSpecial"]));
  it("'the two must match'; 'Submit disabled if either field is empty or has an error.'", () => {
    expect(validatePasswordForm({ password: "Abcdef1!", confirmation: "Abcdef1?" })).toEqual({
      confirmation: { key: "passwordsDiffer", text: "Passwords do not match." },
    });
    expect(canSubmitPasswordForm({ password: "Abcdef1!", confirmation: "Abcdef1!" })).toBe(true);
    expect(canSubmitPasswordForm({ password: "", confirmation: "" })).toBe(false);
    expect(canSubmitPasswordForm({ password: "abc", confirmation: "abc" })).toBe(false);
  });
  it("'The change form also requires the old password.'", () => {
    expect(validatePasswordForm({ password: "Abcdef1!", confirmation: "Abcdef1!", oldPassword: "" })).toHaveProperty(
      "oldPassword.key",
      "required",
    );
    expect(canSubmitPasswordForm({ password: "Abcdef1!", confirmation: "Abcdef1!", oldPassword: "old" })).toBe(true);
  });
});

// "Reset request: e-mail valid and typed twice with equal values; required; trimmed." (accounts seed §5)
describe("e-mail typed twice (accounts seed §5)", () => {
  it("'valid'", () => {
    expect(validateEmailTwice({ email: "not-an-email", confirmation: "not-an-email" })).toHaveProperty("email.key", "emailInvalid");
  });
  it("'typed twice with equal values'", () => {
    expect(validateEmailTwice({ email: "a@b.co", confirmation: "a@b.com" })).toEqual({
      confirmation: { key: "emailsDiffer", text: "E-mail addresses do not match." },
    });
  });
  it("'required'", () => {
    expect(validateEmailTwice({ email: " ", confirmation: "" })).toEqual({
      email: { key: "required", text: "This field is required." },
      confirmation: { key: "required", text: "This field is required." },
    });
  });
  it("'trimmed'", () => {
    expect(validateEmailTwice({ email: "  a@b.co ", confirmation: "a@b.co  " })).toEqual({});
    expect(emailToSend({ email: "  a@b.co ", confirmation: "a@b.co" })).toBe("a@b.co");
    expect(emailToSend({ email: "a@b.co", confirmation: "x@b.co" })).toBeUndefined();
  });
});

// "Login: username and password required; username trimmed." (accounts seed §5)
describe("login (accounts seed §5)", () => {
  it("'username and password required; username trimmed'", () => {
    expect(validateLogin({ username: "  ", password: "" })).toEqual({
      username: { key: "required", text: "This field is required." },
      password: { key: "required", text: "This field is required." },
    });
    expect(loginCredentials({ username: " ana ", password: " p " })).toEqual({ username: "ana", password: " p " });
  });
});
