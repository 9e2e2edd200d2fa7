import { message, type RuleMessage } from "./messages.ts";

/**
 * "Text inputs reject anything other than letters, digits, comma, space, hyphen, underscore" (scheduling seed §5);
 * "otherwise 'Special characters are not allowed.'" (accounts seed §5).
 * Letters are any Unicode letter (accented and non-Latin names pass) with their combining marks, so a decomposed
 * 'é' passes like a composed one; digits are Unicode decimal digits; space is U+0020 only (no tabs or newlines).
 */
export const textInputPattern = /^[\p{L}\p{M}\p{Nd}, _-]*$/u;

export const isAllowedTextInput = (value: string): boolean => textInputPattern.test(value);

export const validateTextInput = (value: string): RuleMessage | undefined =>
  isAllowedTextInput(value) ? undefined : message("specialCharacters");
